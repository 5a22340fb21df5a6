import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueChallenge } from '../../domain/liveness.js';
import { facesDir, modelsDir } from '../assets.js';
import { main as faceMatch } from './face-match-cli.js';
import { writeFramesDir } from './frames-dir.js';
import { main as liveness } from './liveness-cli.js';
import { loadFaceModels } from './models-bundle.js';
import { DEFAULT_FACE_SETTINGS } from './settings.js';
import { buildCapture, challengeForClip, seededRandom, stillFrames } from '../../tools/faces/testing/captures.js';

async function capture(run: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines.join('').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('engine CLI', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'faces-cli-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('face-match prints one line per pair with similarity and match', async () => {
    const a = path.join(facesDir(), 'obama.jpg');
    const b = path.join(facesDir(), 'obama3.jpg');
    const [line] = await capture(() => faceMatch([a, b]));
    expect(line).toMatchObject({ a, b, match: true });
    expect(line!.similarity).toBeGreaterThan(0.45);
  });

  it('liveness reads a frames directory and its challenge', async () => {
    // A still photo is enough to exercise the layout and the output shape (and must not pass).
    const models = await loadFaceModels(modelsDir(), DEFAULT_FACE_SETTINGS);
    const ch = challengeForClip(issueChallenge(seededRandom(21), new Date('2026-11-21T12:00:00Z')), ['blink'], 1500);
    const photo = await sharp(path.join(facesDir(), 'obama.jpg')).resize(320, 320, { fit: 'inside' }).jpeg().toBuffer();
    const framesDir = path.join(dir, 'still');
    await writeFramesDir(framesDir, await buildCapture(models, stillFrames(photo, 15, 10), ch, { lightFrom: ch, strength: 0.1 }), ch);
    await models.release();
    const [line] = await capture(() => liveness([framesDir, '--challenge', path.join(framesDir, 'challenge.json')]));
    expect(line).toMatchObject({ file: framesDir, passed: false, status: 'failed', reasons: expect.arrayContaining(['liveness_challenge_incomplete']) });
    expect(line!.steps).toEqual([expect.objectContaining({ step: 'blink', done: false })]);
    expect(Object.keys(line!.scores as object)).toEqual(expect.arrayContaining(['challenge', 'illumination', 'presentation_attack_real']));
  });
});
