import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCheckOutcome } from '../../domain/checks.js';
import { facesDir } from '../assets.js';
import { createFaceEngine, type FaceEngine } from './index.js';
import { syntheticIdCard } from '../../tools/faces/testing/document.js';

const face = (name: string) => readFile(path.join(facesDir(), name));

describe('matchFaces', () => {
  let engine: FaceEngine;
  beforeAll(async () => {
    engine = await createFaceEngine();
  });
  afterAll(async () => {
    await engine.close();
  });

  it('passes a selfie against a document portrait of the same person', async () => {
    const doc = await syntheticIdCard(await face('obama2.jpg'));
    const outcome = await engine.matchFaces({ selfie: await face('obama.jpg'), document: doc.image });
    expect(ZCheckOutcome.parse(outcome)).toBeTruthy();
    expect(outcome.status).toBe('passed');
    expect(outcome.evidence.similarity).toBeGreaterThanOrEqual(0.45);
    expect(outcome.models.map((m) => m.name)).toContain('fr_feature.onnx');
  });

  it('fails a different person on the document with face_mismatch', async () => {
    const doc = await syntheticIdCard(await face('biden.jpg'));
    const outcome = await engine.matchFaces({ selfie: await face('obama.jpg'), document: doc.image, portraitBox: doc.portraitBox });
    expect(outcome.status).toBe('failed');
    expect(outcome.reasons).toContain('face_mismatch');
    expect(outcome.evidence.similarity).toBeLessThan(0.45);
  });

  it('finds the portrait inside the given box on a document', async () => {
    const doc = await syntheticIdCard(await face('faceonnx/brad_2.jpg'));
    const outcome = await engine.matchFaces({ selfie: await face('faceonnx/brad_1.jpg'), document: doc.image, portraitBox: doc.portraitBox });
    expect(outcome.status).toBe('passed');
  });

  it('reports a document without a face', async () => {
    const doc = await syntheticIdCard(null);
    const outcome = await engine.matchFaces({ selfie: await face('obama.jpg'), document: doc.image });
    expect(outcome.status).toBe('review');
    expect(outcome.reasons).toEqual(['no_face_on_document']);
  });

  it('flags a selfie with two people of similar size for review', async () => {
    const doc = await syntheticIdCard(await face('obama2.jpg'));
    const outcome = await engine.matchFaces({ selfie: await face('two_people.jpg'), document: doc.image });
    expect(outcome.reasons).toContain('multiple_faces');
    expect(outcome.status).not.toBe('passed');
  });

  it('reports an unreadable selfie without a face instead of throwing', async () => {
    const doc = await syntheticIdCard(await face('obama2.jpg'));
    const outcome = await engine.matchFaces({ selfie: Buffer.from('not an image'), document: doc.image });
    expect(outcome.reasons).toContain('no_face_detected');
  });
});
