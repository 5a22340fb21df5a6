import { describe, expect, it } from 'vitest';
import { useFaceModels } from '../../test/face-models.js';
import { ZCheckOutcome } from '../../domain/checks.js';
import { evaluateLiveness } from './liveness.js';
import { FACE_SETTINGS_V4, FACE_SETTINGS_V7, FACE_SETTINGS_V9 } from './settings.js';
import { LABELLED_NOW, labelledCapture, labelledCases } from '../../tools/faces/testing/labelled.js';
import { DIM_LEVELS, dimFrames, TINTS, tintFrame } from '../../tools/faces/testing/lighting.js';

// v4, v7 and v9 pin the same model files: one set of sessions serves all three.
const faceModels = useFaceModels(FACE_SETTINGS_V9);
const caseOf = (id: string) => labelledCases().find((c) => c.id === id)!;
const now = new Date(LABELLED_NOW.getTime() + 30_000);

type Evidence = {
  settings_version: string;
  challenge: { steps: { step: string; done: boolean }[] };
  attack: { dissenting: string[]; signals: { name: string; dissent: boolean | null }[] };
};
type Result = Awaited<ReturnType<typeof evaluateLiveness>>;
const evidenceOf = (r: Result) => r.outcome.evidence as unknown as Evidence;
const skinOf = (r: Result) => evidenceOf(r).attack.signals.find((s) => s.name === 'skin_tone')!;

describe('faces v9 = v4 + the white-balanced skin tone, nothing else (real tuning clips)', () => {
  it('differs from v4 only by v7\'s skin-tone balance: no dark-eye gain, no v8 movement or off-frontal blink', () => {
    expect(FACE_SETTINGS_V9.version).toBe('faces-2026.11.9');
    const { version: _a, v2: v2of9, ...rest9 } = FACE_SETTINGS_V9;
    const { version: _b, v2: v2of4, ...rest4 } = FACE_SETTINGS_V4;
    expect(rest9).toEqual(rest4);
    const { attack: attack9, ...other9 } = v2of9!;
    const { attack: attack4, ...other4 } = v2of4!;
    expect(other9).toEqual(other4);
    expect(attack9).toEqual({ ...attack4, skinToneWhiteBalance: FACE_SETTINGS_V7.v2!.attack.skinToneWhiteBalance });
  });

  it('a genuine capture under orange room light: v4 sends it to review on skin tone, v9 passes it', async () => {
    const c = caseOf('g_clm_turn');
    const { frames, challenge } = await labelledCapture(faceModels(), c, { light: false });
    const tinted = await Promise.all(frames.map(async (f) => ({ ...f, image: await tintFrame(f.image, TINTS.orange) })));
    const v4 = await evaluateLiveness(faceModels(), FACE_SETTINGS_V4, { frames: tinted, challenge, now, options: { withoutIllumination: true } });
    const v9 = await evaluateLiveness(faceModels(), FACE_SETTINGS_V9, { frames: tinted, challenge, now, options: { withoutIllumination: true } });
    ZCheckOutcome.parse(v9.outcome);
    expect(evidenceOf(v9).settings_version).toBe('faces-2026.11.9');
    expect(skinOf(v4).dissent).toBe(true);
    expect(v4.outcome.status).toBe('review');
    expect(skinOf(v9).dissent, JSON.stringify(skinOf(v9))).toBe(false);
    expect(v9.outcome.status, JSON.stringify(evidenceOf(v9).attack.dissenting)).toBe('passed');
  });

  it('keeps v4\'s blink reading in a dim room (v7\'s eye gain is not in v9): 4 stops under, the same blinks missed as v4', async () => {
    const c = caseOf('g_d9_c');
    expect(c.held_out).toBe(false);
    const { frames, challenge } = await labelledCapture(faceModels(), c, { light: false });
    const dark = await dimFrames(frames.map((f) => f.image), DIM_LEVELS.dark);
    const darkCapture = frames.map((f, i) => ({ ...f, image: dark[i]! }));
    const v4 = await evaluateLiveness(faceModels(), FACE_SETTINGS_V4, { frames: darkCapture, challenge, now, options: { withoutIllumination: true } });
    const v9 = await evaluateLiveness(faceModels(), FACE_SETTINGS_V9, { frames: darkCapture, challenge, now, options: { withoutIllumination: true } });
    expect(evidenceOf(v9).challenge.steps).toEqual(evidenceOf(v4).challenge.steps);
    expect(v9.outcome.status).toBe(v4.outcome.status);
  });
});
