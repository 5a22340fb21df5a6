import { describe, expect, it } from 'vitest';
import { useFaceModels } from '../../test/face-models.js';
import { ZCheckOutcome } from '../../domain/checks.js';
import { decodeImage, scaleBox } from './image.js';
import { evaluateLiveness } from './liveness.js';
import { explainedSkinTone, skinToneFraction, whiteBalancedSkinTone } from './screen-cues.js';
import { FACE_SETTINGS_V4, FACE_SETTINGS_V7 } from './settings.js';
import { decodeClip } from '../../tools/faces/testing/clips.js';
import { clipAvailable, clipPath, LABELLED_NOW, labelledCapture, labelledCases } from '../../tools/faces/testing/labelled.js';
import { DIM_LEVELS, dimFrames, TINTS, tintFrame } from '../../tools/faces/testing/lighting.js';

/** Whether a labelled case's clip is on this machine (public clips: only where their repository is fetched). */
const clipHere = (id: string) => clipAvailable(labelledCases().find((c) => c.id === id)!.file);

// v4 and v7 pin the same model files: one set of sessions serves both.
const faceModels = useFaceModels(FACE_SETTINGS_V7);
const caseOf = (id: string) => labelledCases().find((c) => c.id === id)!;
const now = new Date(LABELLED_NOW.getTime() + 30_000);
const wb = FACE_SETTINGS_V7.v2!.attack.skinToneWhiteBalance!;
const bound = FACE_SETTINGS_V7.v2!.attack.minSkinToneFraction!;

type Evidence = {
  settings_version: string;
  challenge: { steps: { step: string; done: boolean }[]; events: { step: string; start_ms: number; end_ms: number }[] };
  attack: { dissenting: string[]; signals: { name: string; dissent: boolean | null; value: number | null; detail?: { gains?: number[][] } }[] };
};
const evidenceOf = (r: Awaited<ReturnType<typeof evaluateLiveness>>) => r.outcome.evidence as unknown as Evidence;
const skinOf = (r: Awaited<ReturnType<typeof evaluateLiveness>>) => evidenceOf(r).attack.signals.find((s) => s.name === 'skin_tone')!;

/** A frame of a tuning clip with its largest face. */
async function frameOf(file: string, atS: number) {
  const [f] = await decodeClip(clipPath(file), { startS: atS, durationS: 0.1, fps: 10, maxSide: 480 });
  return f!.image;
}
async function measure(jpeg: Buffer) {
  const img = await decodeImage(jpeg, 480);
  const [face] = await faceModels().frameDetector.detect(img);
  expect(face).toBeDefined();
  const raw = skinToneFraction(img, face!.box), balanced = whiteBalancedSkinTone(img, face!.box, wb);
  return { img, box: face!.box, raw, balanced, v7: explainedSkinTone(raw, balanced.fraction) };
}

describe('faces v7 skin tone: judged against the scene\'s own light (real frames, tuning clips)', () => {
  it('a genuine person in a room lit orange: v3–v5 read off-gamut skin, v7 reads the same skin as in white light', async () => {
    const c = caseOf('g_clm_turn');
    expect(c.held_out).toBe(false);
    const frame = await frameOf(c.file, c.start_s + 0.5);
    const white = await measure(frame);
    const orange = await measure(await tintFrame(frame, TINTS.orange));
    expect(white.raw).toBeGreaterThan(0.9);
    expect(orange.raw).toBeLessThan(bound);
    expect(orange.balanced.fraction).toBeGreaterThan(0.9);
    expect(Math.abs(orange.balanced.fraction - white.balanced.fraction)).toBeLessThan(0.05);
    // The orange light is what was corrected: blue raised, red lowered.
    expect(orange.balanced.gains[2]).toBeGreaterThan(1.2);
    expect(orange.balanced.gains[0]).toBeLessThan(1);
  });

  it.skipIf(!clipHere('g_tran_nod'))('a face lit by its own white point in an untinted room (what a screen shows; a public clip, skipped where its repository is not fetched, as in CI) stays off-gamut', async () => {
    const c = caseOf('g_tran_nod');
    expect(c.held_out).toBe(false);
    const frame = await frameOf(c.file, c.start_s + 0.5);
    const { box } = await measure(frame);
    const screenLike = await measure(await tintFrame(frame, TINTS.cool, scaleBox(box, 1.2)));
    const roomLike = await measure(await tintFrame(frame, TINTS.cool));
    expect(roomLike.raw).toBeLessThan(bound);
    expect(roomLike.balanced.fraction).toBeGreaterThan(0.8);
    expect(screenLike.raw).toBeLessThan(bound);
    expect(screenLike.balanced.fraction).toBeLessThan(bound);
    expect(screenLike.v7).toBeLessThan(bound);
    expect(roomLike.v7).toBeGreaterThan(0.8);
  });

  it('a real phone replay keeps its cast against the room it is filmed in', async () => {
    const c = caseOf('r_pyimage_a');
    expect(c.held_out).toBe(false);
    const values: number[] = [];
    for (const t of [0.5, 1.5, 2.5]) values.push((await measure(await frameOf(c.file, c.start_s + t))).v7);
    values.sort((a, b) => a - b);
    expect(values[1]).toBeLessThan(bound);
  });

  it('the balance only clears a frame, never flags one; achromatic only when both readings are', () => {
    expect(explainedSkinTone(0.1, 0.9)).toBe(0.9);
    expect(explainedSkinTone(0.9, 0.1)).toBe(0.9);
    expect(explainedSkinTone(Number.NaN, 0.4)).toBe(0.4);
    expect(explainedSkinTone(Number.NaN, Number.NaN)).toBeNaN();
  });

  it('a face filling the frame has no scene to read the light from: measured as captured', async () => {
    const frame = await frameOf(caseOf('g_clm_turn').file, caseOf('g_clm_turn').start_s + 0.5);
    const { img, box } = await measure(frame);
    const all = { x: -img.width, y: -img.height, width: 3 * img.width, height: 3 * img.height };
    const r = whiteBalancedSkinTone(img, all, wb);
    expect(r.gains).toEqual([1, 1, 1]);
    expect(r.fraction).toBe(skinToneFraction(img, all));
    expect(box.width).toBeGreaterThan(0);
  });

  it('a whole genuine capture under orange light: v4 sends it to review on skin tone, v7 passes it', async () => {
    const c = caseOf('g_clm_turn');
    const { frames, challenge } = await labelledCapture(faceModels(), c, { light: false });
    const tinted = await Promise.all(frames.map(async (f) => ({ ...f, image: await tintFrame(f.image, TINTS.orange) })));
    const v4 = await evaluateLiveness(faceModels(), FACE_SETTINGS_V4, { frames: tinted, challenge, now, options: { withoutIllumination: true } });
    const v7 = await evaluateLiveness(faceModels(), FACE_SETTINGS_V7, { frames: tinted, challenge, now, options: { withoutIllumination: true } });
    ZCheckOutcome.parse(v7.outcome);
    expect(evidenceOf(v7).settings_version).toBe('faces-2026.11.7');
    expect(skinOf(v4).dissent).toBe(true);
    expect(v4.outcome.status).toBe('review');
    expect(skinOf(v7).dissent, JSON.stringify(skinOf(v7))).toBe(false);
    expect(skinOf(v7).detail?.gains?.length).toBeGreaterThan(0);
    expect(v7.outcome.status, JSON.stringify(evidenceOf(v7).attack.dissenting)).toBe('passed');
  });
});

describe('faces v7 blinks in a dim room (real clip, darkened)', () => {
  it('a genuine capture 4 stops under: v4 misses every labelled blink, v7 finds them; as recorded both find them all', async () => {
    const c = caseOf('g_d9_c');
    expect(c.held_out).toBe(false);
    const { frames, challenge } = await labelledCapture(faceModels(), c, { light: false });
    const dark = await dimFrames(frames.map((f) => f.image), DIM_LEVELS.dark);
    const darkCapture = frames.map((f, i) => ({ ...f, image: dark[i]! }));
    const found = (r: Awaited<ReturnType<typeof evaluateLiveness>>) =>
      c.blinks_s.filter((t) => evidenceOf(r).challenge.events.some((e) => e.step === 'blink' && t * 1000 >= e.start_ms - 300 && t * 1000 <= e.end_ms + 300)).length;
    const v4 = await evaluateLiveness(faceModels(), FACE_SETTINGS_V4, { frames: darkCapture, challenge, now, options: { withoutIllumination: true } });
    const v7 = await evaluateLiveness(faceModels(), FACE_SETTINGS_V7, { frames: darkCapture, challenge, now, options: { withoutIllumination: true } });
    expect(found(v4)).toBe(0);
    expect(v4.outcome.status).toBe('failed');
    expect(found(v7)).toBe(c.blinks_s.length);
    expect(v7.outcome.status, JSON.stringify(evidenceOf(v7).challenge)).toBe('passed');
    const asRecorded = await evaluateLiveness(faceModels(), FACE_SETTINGS_V7, { frames, challenge, now, options: { withoutIllumination: true } });
    expect(found(asRecorded)).toBe(c.blinks_s.length);
    expect(asRecorded.outcome.status).toBe('passed');
  });
});
