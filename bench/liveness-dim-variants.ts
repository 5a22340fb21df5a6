import { FACE_SETTINGS_V7, FACE_SETTINGS_V10, type FaceEngineSettings } from '../engine/faces/settings.js';

/**
 * Dim-room blink designs measured by bench/liveness-dim.ts: v7's gain with the consistency check
 * (`blink.confirmDimClosed`) at two strengths of the lid-point condition. 0.5 is v10's; 0 (both eyes
 * only) let a non-responder's dim copy (`n_headtrackr`) gain a blink and was left out.
 */
const confirmed = (earShare: number): FaceEngineSettings => ({
  ...FACE_SETTINGS_V10,
  version: `faces-2026.11.10-dim-${earShare}`,
  v2: { ...FACE_SETTINGS_V10.v2!, blink: { ...FACE_SETTINGS_V10.v2!.blink, darkEyeGain: FACE_SETTINGS_V7.v2!.blink.darkEyeGain!, confirmDimClosed: { earShare } } },
});
export const DIM_BLINK_VARIANTS: [string, FaceEngineSettings][] = [
  ['gain + both eyes, ear 0.5', confirmed(0.5)],
  ['gain + both eyes, ear 0', confirmed(0)],
];
