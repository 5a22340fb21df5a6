import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCheckOutcome } from '../../domain/checks.js';
import { issueChallenge, type TLivenessChallenge, type TLivenessStep } from '../../domain/liveness.js';
import { facesDir, modelsDir, videosDir } from '../assets.js';
import { evaluateLiveness } from './liveness.js';
import { loadFaceModels, type FaceModels } from './models-bundle.js';
import { DEFAULT_FACE_SETTINGS } from './settings.js';
import { buildCapture, challengeForClip, planarTurnFrames, seededRandom, simulatePrint, stillFrames, type CaptureFrame } from '../../tools/faces/testing/captures.js';
import { decodeClip, type DecodedFrame } from '../../tools/faces/testing/clips.js';

// Frames at 10 fps, 480 px: what the hosted page uploads, and cheap enough for CI.
const FPS = 10;
const NOW = new Date('2026-11-21T12:00:00Z');
const LIGHT = 0.1;
const settings = DEFAULT_FACE_SETTINGS;

let models: FaceModels;
beforeAll(async () => {
  models = await loadFaceModels(modelsDir(), settings);
});
afterAll(async () => {
  await models.release();
});

const clip = (name: string, startS: number, durationS: number) => decodeClip(path.join(videosDir(), name), { startS, durationS, fps: FPS, maxSide: 480 });
const challenge = (seed: number, steps: TLivenessStep[], durationMs: number) => challengeForClip(issueChallenge(seededRandom(seed), NOW), steps, durationMs);
const evaluate = (frames: CaptureFrame[], ch: TLivenessChallenge, now = new Date(NOW.getTime() + 20_000)) =>
  evaluateLiveness(models, settings, { frames, challenge: ch, now }).then((r) => {
    ZCheckOutcome.parse(r.outcome);
    return r;
  });
type Evidence = { challenge: { in_order: boolean; planar_motion: boolean; steps: { done: boolean }[] }; illumination: { correlation: number }; presentation_attack: { real_score: number }; binding: { foreign_nonce_frames: number } };
const evidence = (r: { outcome: { evidence: unknown } }) => r.outcome.evidence as Evidence;

describe('genuine captures pass the challenge they answer', () => {
  let turns: DecodedFrame[];
  let issued: TLivenessChallenge;
  let genuine: CaptureFrame[];
  beforeAll(async () => {
    // The person turns to their own left (nose to image right) 0.5–1.4 s, right 1.9–2.6 s, chin up 3.4–4.3 s.
    turns = await clip('shenasa_headpose_sample.gif', 0, 6);
    issued = challenge(1, ['turn_left', 'turn_right', 'nod'], 6000);
    genuine = await buildCapture(models, turns, issued, { lightFrom: issued, strength: LIGHT });
  });

  it('turn left, turn right, nod, lit by the issued colours', async () => {
    const r = await evaluate(genuine, issued);
    expect(r.outcome.status, JSON.stringify(r.outcome.evidence)).toBe('passed');
    expect(r.outcome.reasons).toEqual([]);
    expect(r.outcome.score).toBeGreaterThan(0.5);
    expect(r.bestFrame).toBeInstanceOf(Buffer);
    expect(evidence(r).illumination.correlation).toBeGreaterThan(settings.illumination.minCorrelation);
    expect(r.outcome.models.map((m) => m.name)).toEqual(expect.arrayContaining(['yunet_s_320_320.onnx', 'minifasnet_v2.onnx', 'fr_feature.onnx']));
  });

  it('blink (selfie framing, head still)', async () => {
    const frames = await clip('liveportrait_d13.mp4', 0.5, 3.2);
    const ch = challenge(2, ['blink'], 3200);
    const r = await evaluate(await buildCapture(models, frames, ch, { lightFrom: ch, strength: LIGHT }), ch);
    expect(r.outcome.status, JSON.stringify(r.outcome.evidence)).toBe('passed');
  });

  describe('and the same capture is rejected when it answers something else', () => {
    it('an old capture: frames carry another challenge nonce', async () => {
      const current = challenge(4, ['turn_left', 'turn_right', 'nod'], 6000);
      const r = await evaluate(genuine, current);
      expect(r.outcome.status).toBe('failed');
      expect(r.outcome.reasons).toContain('liveness_challenge_incomplete');
      expect(evidence(r).binding.foreign_nonce_frames).toBe(turns.length);
    });

    it('the right nonce and colours but the steps asked in another order', async () => {
      const r = await evaluate(genuine, { ...issued, steps: ['turn_right', 'turn_left', 'nod'] });
      expect(r.outcome.status).toBe('failed');
      expect(r.outcome.reasons).toEqual(['liveness_challenge_incomplete']);
      expect(evidence(r).challenge.in_order).toBe(false);
    });

    it('face colours that follow another colour sequence than the issued one', async () => {
      const other = challenge(7, ['turn_left', 'turn_right', 'nod'], 6000);
      const r = await evaluate(await buildCapture(models, turns, issued, { lightFrom: other, strength: LIGHT }), issued);
      expect(r.outcome.status).toBe('failed');
      expect(r.outcome.reasons).toEqual(['illumination_mismatch']);
    });

    it('no screen light on the face at all (video injected or replayed)', async () => {
      const r = await evaluate(await buildCapture(models, turns, issued), issued);
      expect(r.outcome.status).toBe('failed');
      expect(r.outcome.reasons).toContain('illumination_mismatch');
    });

    it('submitted after the deadline', async () => {
      const r = await evaluate(genuine, issued, new Date(Date.parse(issued.deadline) + 1));
      expect(r.outcome.status).toBe('failed');
      expect(r.outcome.reasons).toContain('liveness_challenge_incomplete');
    });
  });
});

describe('attacks are rejected', () => {
  it('a still photo, even lit by the screen like a print would be', async () => {
    const photo = await sharp(path.join(facesDir(), 'faceonnx/brad_1.jpg')).resize(480, 480, { fit: 'inside' }).jpeg().toBuffer();
    const ch = challenge(10, ['turn_left', 'nod'], 2000);
    const r = await evaluate(await buildCapture(models, stillFrames(photo, 20, FPS), ch, { lightFrom: ch, strength: LIGHT }), ch);
    expect(r.outcome.status).toBe('failed');
    expect(r.outcome.reasons).toContain('liveness_challenge_incomplete');
  });

  it('a planar 2-D warp of one photo imitating a turn', async () => {
    const photo = await readFile(path.join(facesDir(), 'faceonnx/nicole_2.jpg'));
    const yaw = (t: number) => (t < 1000 || t > 3000 ? 0 : -50 * Math.sin(((t - 1000) / 2000) * Math.PI));
    const ch = challenge(11, ['turn_right'], 4000);
    const r = await evaluate(await buildCapture(models, await planarTurnFrames(photo, 400, FPS, 4000, yaw), ch, { lightFrom: ch, strength: LIGHT }), ch);
    expect(r.outcome.status).toBe('failed');
    const e = evidence(r);
    // Either the warp never reads as a turn, or it does and has no depth: never a pass.
    expect(e.challenge.planar_motion || !e.challenge.steps[0]!.done).toBe(true);
    expect(r.outcome.reasons).toContain('presentation_attack_suspected');
  });

  it('a simulated print, hand-held (wobbling) in front of the camera and lit by the screen', async () => {
    // The same photo as a live capture scores ~1.0 real; as a print ~0.0 (see bench for all photos).
    const print = await simulatePrint(await readFile(path.join(facesDir(), 'minivision/image_T1.jpg')), 480);
    const ch = challenge(12, ['turn_left'], 2000);
    const wobble = (t: number) => 12 * Math.sin((t / 1000) * Math.PI);
    const r = await evaluate(await buildCapture(models, await planarTurnFrames(print, 400, FPS, 2000, wobble), ch, { lightFrom: ch, strength: LIGHT }), ch);
    expect(r.outcome.status).toBe('failed');
    expect(r.outcome.reasons).toContain('presentation_attack_suspected');
  });

  // Replays: the phone emits its own light, so no simulated screen light is added.
  it.each([
    ['zubair_fake.mp4', 0.5, 4, 'a face video replayed on a phone'],
    ['lestari_fake.mp4', 0, 2.6, 'a photo shown on a phone'],
    ['liveness_pyimagesearch_fake.mp4', 1, 4, 'a hand-held phone replaying a selfie video'],
  ])('%s: %s', async (name, start, duration) => {
    const frames = await clip(name, start, duration);
    const ch = challenge(13, ['turn_left', 'blink'], duration * 1000);
    const r = await evaluate(await buildCapture(models, frames, ch), ch);
    expect(r.outcome.status).toBe('failed');
    expect(r.outcome.reasons).toContain('presentation_attack_suspected');
    expect(evidence(r).presentation_attack.real_score).toBeLessThan(settings.pad.minRealScore);
  });

  it('a capture without a face goes to review, not pass', async () => {
    const blank = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#808080' } }).jpeg().toBuffer();
    const ch = challenge(15, ['blink'], 2000);
    const r = await evaluate(await buildCapture(models, stillFrames(blank, 20, FPS), ch), ch);
    expect(r.outcome.status).toBe('review');
    expect(r.outcome.reasons).toEqual(['no_face_detected']);
    expect(r.bestFrame).toBeUndefined();
  });

  it('a live person who does not move fails a turn challenge', async () => {
    const frames = await clip('noddingpigeon_head_stationary.mp4', 0, 4);
    const ch = challenge(14, ['turn_left', 'nod'], 4000);
    const r = await evaluate(await buildCapture(models, frames, ch, { lightFrom: ch, strength: LIGHT }), ch);
    expect(r.outcome.status).toBe('failed');
    expect(r.outcome.reasons).toEqual(['liveness_challenge_incomplete']);
  });
});
