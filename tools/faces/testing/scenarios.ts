import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { issueChallenge, type TLivenessChallenge, type TLivenessStep } from '../../../domain/liveness.js';
import { facesDir, videosDir } from '../../../engine/assets.js';
import type { FaceModels } from '../../../engine/faces/models-bundle.js';
import { buildCapture, challengeForClip, planarTurnFrames, seededRandom, simulatePrint, stillFrames, type CaptureFrame } from './captures.js';
import { decodeClip } from './clips.js';

/** A capture the bench (and anyone debugging) can run, with what a correct engine must say. */
export interface Scenario {
  name: string;
  expect: 'pass' | 'reject';
  build(models: FaceModels): Promise<{ frames: CaptureFrame[]; challenge: TLivenessChallenge }>;
}

const NOW = new Date('2026-11-21T12:00:00Z');
const FPS = 10;
const LIGHT = 0.1;

function challenge(seed: number, steps: TLivenessStep[], durationMs: number): TLivenessChallenge {
  return challengeForClip(issueChallenge(seededRandom(seed), NOW), steps, durationMs);
}

function fromClip(name: string, file: string, startS: number, durationS: number, steps: TLivenessStep[], expectation: 'pass' | 'reject', light: 'issued' | 'other' | 'none', seed: number): Scenario {
  return {
    name,
    expect: expectation,
    async build(models) {
      const frames = await decodeClip(path.join(videosDir(), file), { startS, durationS, fps: FPS, maxSide: 480 });
      const ch = challenge(seed, steps, durationS * 1000);
      const lightFrom = light === 'issued' ? ch : light === 'other' ? challenge(seed + 1000, steps, durationS * 1000) : undefined;
      return { frames: await buildCapture(models, frames, ch, { lightFrom, strength: LIGHT }), challenge: ch };
    },
  };
}

const PHOTOS = ['obama.jpg', 'biden.jpg', 'faceonnx/brad_2.jpg', 'faceonnx/nicole_2.jpg', 'rose_leslie_img2.jpg', 'faceonnx/sarah_2.jpg', 'alex_lacamoire_img1.jpg', 'minivision/image_T1.jpg'];

/**
 * Genuine clips get a challenge built from what happens in them (see ../../../../shared/videos/README.md)
 * and simulated screen light of the issued colours; replays get none (a phone emits its own light).
 */
export function scenarios(): Scenario[] {
  const list: Scenario[] = [
    fromClip('genuine shenasa turn-left turn-right nod', 'shenasa_headpose_sample.gif', 0, 6, ['turn_left', 'turn_right', 'nod'], 'pass', 'issued', 1),
    fromClip('genuine krzysiek turn-left turn-right nod', 'krzysiek_real.mp4', 1.5, 5.2, ['turn_left', 'turn_right', 'nod'], 'pass', 'issued', 2),
    fromClip('genuine liveportrait_d13 blink', 'liveportrait_d13.mp4', 0.5, 3.2, ['blink'], 'pass', 'issued', 3),
    fromClip('genuine liveportrait_d9 blink', 'liveportrait_d9.mp4', 3.5, 2, ['blink'], 'pass', 'issued', 4),
    fromClip('genuine noddingpigeon nod', 'noddingpigeon_head_nodding.mp4', 1.15, 2, ['nod'], 'pass', 'issued', 5),
    fromClip('wrong colours shenasa', 'shenasa_headpose_sample.gif', 0, 6, ['turn_left', 'turn_right', 'nod'], 'reject', 'other', 6),
    fromClip('wrong order shenasa', 'shenasa_headpose_sample.gif', 0, 6, ['turn_right', 'turn_left', 'nod'], 'reject', 'issued', 7),
    fromClip('no motion: noddingpigeon stationary', 'noddingpigeon_head_stationary.mp4', 0, 4, ['turn_left', 'nod'], 'reject', 'issued', 8),
    fromClip('head shaking both ways: noddingpigeon turning', 'noddingpigeon_head_turning.mp4', 0, 4, ['turn_left', 'turn_right', 'nod'], 'reject', 'issued', 9),
    fromClip('sideways movement, not a turn: headtrackr', 'headtrackr_capture4.mp4', 0, 6, ['turn_left', 'turn_right'], 'reject', 'issued', 10),
    fromClip('replay: zubair phone video', 'zubair_fake.mp4', 0.5, 4, ['turn_left', 'blink'], 'reject', 'none', 11),
    fromClip('replay: lestari photo on phone', 'lestari_fake.mp4', 0, 2.6, ['blink'], 'reject', 'none', 12),
    fromClip('replay: pyimagesearch hand-held phone', 'liveness_pyimagesearch_fake.mp4', 1, 4, ['turn_left', 'blink'], 'reject', 'none', 13),
    fromClip('live but still, blink asked: lestari real', 'lestari_real.mp4', 0, 3.7, ['blink'], 'reject', 'issued', 14),
  ];
  for (const [i, photo] of PHOTOS.entries()) {
    list.push({
      name: `still photo ${photo}`,
      expect: 'reject',
      async build(models) {
        const ch = challenge(100 + i, ['turn_left', 'nod'], 3000);
        return { frames: await buildCapture(models, stillFrames(await readFile(path.join(facesDir(), photo)), 30, FPS), ch, { lightFrom: ch, strength: LIGHT }), challenge: ch };
      },
    });
    list.push({
      name: `planar warp turn ${photo}`,
      expect: 'reject',
      async build(models) {
        const ch = challenge(200 + i, ['turn_right'], 4000);
        const yaw = (t: number) => (t < 1000 || t > 3000 ? 0 : -50 * Math.sin(((t - 1000) / 2000) * Math.PI));
        return { frames: await buildCapture(models, await planarTurnFrames(await readFile(path.join(facesDir(), photo)), 400, FPS, 4000, yaw), ch, { lightFrom: ch, strength: LIGHT }), challenge: ch };
      },
    });
    list.push({
      name: `hand-held print ${photo}`,
      expect: 'reject',
      async build(models) {
        const ch = challenge(300 + i, ['turn_left'], 3000);
        const wobble = (t: number) => 12 * Math.sin((t / 1000) * Math.PI);
        const print = await simulatePrint(await readFile(path.join(facesDir(), photo)), 480);
        return { frames: await buildCapture(models, await planarTurnFrames(print, 400, FPS, 3000, wobble), ch, { lightFrom: ch, strength: LIGHT }), challenge: ch };
      },
    });
  }
  return list;
}
