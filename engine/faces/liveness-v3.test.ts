import { describe, expect, it } from 'vitest';
import { useFaceModels } from '../../test/face-models.js';
import { ZCheckOutcome } from '../../domain/checks.js';
import type { RgbImage } from './image.js';
import { evaluateLiveness } from './liveness.js';
import { screenFrame, skinToneFraction } from './screen-cues.js';
import { FACE_SETTINGS_V3 } from './settings.js';
import { LABELLED_NOW, labelledCapture, labelledCases } from '../../tools/faces/testing/labelled.js';

const settings = FACE_SETTINGS_V3;
const faceModels = useFaceModels(settings);

const caseOf = (id: string) => labelledCases().find((c) => c.id === id)!;
type Signals = { dissenting: string[]; signals: { name: string; dissent: boolean | null; value: number | null }[] };

/** A W×H image filled with `bg`, with `rects` painted on top. */
function image(w: number, h: number, bg: [number, number, number], rects: { x: number; y: number; w: number; h: number; rgb: [number, number, number] }[]): RgbImage {
  const data = new Uint8Array(w * h * 3);
  for (let i = 0; i < w * h; i++) data.set(bg, i * 3);
  for (const r of rects) for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) data.set(r.rgb, (y * w + x) * 3);
  return { width: w, height: h, data };
}

describe('screen cues of v3', () => {
  const face = { x: 180, y: 120, width: 80, height: 100 };
  const skin: [number, number, number] = [200, 150, 120];
  it('a bright panel around the face on two opposite sides is a screen frame; one side alone is not', () => {
    const panel = image(440, 340, [30, 30, 30], [{ x: 120, y: 0, w: 200, h: 340, rgb: [220, 220, 220] }, { ...face, w: 80, h: 100, rgb: skin }]);
    expect(screenFrame(panel, face).sides).toBeGreaterThanOrEqual(settings.v2!.attack.minScreenFrameEnclosure!);
    // Only the left edge (the panel runs off the right of the picture).
    const half = image(440, 340, [30, 30, 30], [{ x: 120, y: 0, w: 320, h: 340, rgb: [220, 220, 220] }, { ...face, w: 80, h: 100, rgb: skin }]);
    expect(screenFrame(half, face).enclosure).toBeLessThan(0.5);
    // A dark panel (a door, a shelf) has the wrong polarity: darker inside.
    const dark = image(440, 340, [220, 220, 220], [{ x: 120, y: 0, w: 200, h: 340, rgb: [30, 30, 30] }, { ...face, w: 80, h: 100, rgb: skin }]);
    expect(screenFrame(dark, face).enclosure).toBeLessThan(0.5);
  });

  it('skin-tone gamut: skin colour in, a cyan cast out, a grayscale frame not measurable', () => {
    expect(skinToneFraction(image(440, 340, [0, 0, 0], [{ ...face, w: 80, h: 100, rgb: skin }]), face)).toBe(1);
    expect(skinToneFraction(image(440, 340, [0, 0, 0], [{ ...face, w: 80, h: 100, rgb: [150, 200, 210] }]), face)).toBe(0);
    expect(skinToneFraction(image(440, 340, [0, 0, 0], [{ ...face, w: 80, h: 100, rgb: [160, 160, 160] }]), face)).toBeNaN();
  });
});

describe('liveness v3 on real clips (tuning split)', () => {
  it('a phone replaying a selfie video is failed by the attack signals alone, the screen frame and skin tone among them', async () => {
    const c = caseOf('r_pyimage_a');
    expect(c.held_out).toBe(false);
    const { frames, challenge } = await labelledCapture(faceModels(), c, { light: false });
    const r = await evaluateLiveness(faceModels(), settings, { frames, challenge, now: new Date(LABELLED_NOW.getTime() + 30_000), options: { withoutIllumination: true } });
    ZCheckOutcome.parse(r.outcome);
    const attack = (r.outcome.evidence as { attack: Signals }).attack;
    expect(attack.dissenting).toEqual(expect.arrayContaining(['screen_frame', 'skin_tone']));
    expect(r.outcome.status).toBe('failed');
    expect(r.outcome.reasons).toContain('presentation_attack_suspected');
  });

  it('a genuine capture lit by the issued colours passes, and neither new signal dissents', async () => {
    const { frames, challenge } = await labelledCapture(faceModels(), caseOf('g_shenasa_turns'), { light: true });
    const r = await evaluateLiveness(faceModels(), settings, { frames, challenge, now: new Date(LABELLED_NOW.getTime() + 30_000) });
    expect(r.outcome.status, JSON.stringify(r.outcome.evidence)).toBe('passed');
    const attack = (r.outcome.evidence as { attack: Signals }).attack;
    for (const name of ['screen_frame', 'skin_tone']) expect(attack.signals.find((s) => s.name === name)?.dissent).toBe(false);
  });
});
