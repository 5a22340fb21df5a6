/**
 * `npx tsx bench/liveness-dim.ts`: the faces v10 design figures for blinks in a dim room, on TUNING data
 * only (engine/faces/README.md "Liveness v10"): every labelled tuning case (blink clips, turning and
 * nodding clips, non-responses, replays), as recorded, dim and dark (`tools/faces/testing/lighting.ts`),
 * under each variant: labelled blinks found, and blink events away from any labelled blink (on a case
 * with no labelled blink, every event is one), per case and in total. Nothing held out or unseen is read.
 */
import { modelsDir } from '../engine/assets.js';
import { evaluateLiveness } from '../engine/faces/liveness.js';
import { loadFaceModels } from '../engine/faces/models-bundle.js';
import { FACE_SETTINGS_V4, FACE_SETTINGS_V7, FACE_SETTINGS_V10, type FaceEngineSettings } from '../engine/faces/settings.js';
import { LABELLED_NOW, labelledCapture, labelledCases, matchBlinks } from '../tools/faces/testing/labelled.js';
import { DIM_LEVELS, dimFrames } from '../tools/faces/testing/lighting.js';
import { DIM_BLINK_VARIANTS } from './liveness-dim-variants.js';

const models = await loadFaceModels(modelsDir(), FACE_SETTINGS_V10);
// `--variants-only`: the designs without v4 and v7 (their figures from an earlier run on the same captures).
const variants: [string, FaceEngineSettings][] = [...(process.argv.includes('--variants-only') ? [] : ([['v4', FACE_SETTINGS_V4], ['v7 gain', FACE_SETTINGS_V7]] as [string, FaceEngineSettings][])), ...DIM_BLINK_VARIANTS];
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1]!.split(',') : undefined;
const cases = labelledCases().filter((c) => !c.held_out && (!only || only.includes(c.id)));
console.log(`# blinks, tuning cases (${cases.length}), as recorded / dim / dark, without colour; ${new Date().toISOString()}`);
const tot = new Map<string, { found: number; labelled: number; other: number; passed: number; n: number }>();
for (const c of cases) {
  const { frames, challenge } = await labelledCapture(models, c, { light: false });
  for (const [level, lv] of [['as recorded', undefined], ...Object.entries(DIM_LEVELS)] as const) {
    const images = lv ? await dimFrames(frames.map((f) => f.image), lv) : frames.map((f) => f.image);
    const capture = frames.map((f, i) => ({ ...f, image: images[i]! }));
    for (const [name, settings] of variants) {
      const r = await evaluateLiveness(models, settings, { frames: capture, challenge, now: new Date(LABELLED_NOW.getTime() + 30_000), options: { withoutIllumination: true } });
      const ch = (r.outcome.evidence as { challenge?: { events: { step: string; start_ms: number; end_ms: number; magnitude: number }[]; eye_baseline: { ear: number; closed: number } } }).challenge;
      const events = (ch?.events ?? []).filter((e) => e.step === 'blink');
      const { found, other } = matchBlinks(events, c.blinks_s);
      const key = `${name} | ${level}`;
      const t = tot.get(key) ?? { found: 0, labelled: 0, other: 0, passed: 0, n: 0 };
      tot.set(key, { found: t.found + found, labelled: t.labelled + c.blinks_s.length, other: t.other + other.length, passed: t.passed + (r.outcome.status === 'passed' ? 1 : 0), n: t.n + 1 });
      console.log(`  ${c.id.padEnd(18)} ${c.kind.padEnd(13)} ${level.padEnd(12)} ${name.padEnd(22)} ${r.outcome.status.padEnd(7)} blinks ${found}/${c.blinks_s.length}, other ${other.map((e) => `${e.start_ms}–${e.end_ms} (${e.magnitude})`).join(' ') || 0}; baseline ear ${ch?.eye_baseline.ear} closed ${ch?.eye_baseline.closed}`);
    }
  }
}
for (const [k, t] of tot) console.log(`${k.padEnd(40)} labelled blinks ${t.found}/${t.labelled}, other blink events ${t.other}, passed ${t.passed}/${t.n}`);
await models.release();
