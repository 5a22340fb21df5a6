/**
 * `npx tsx bench/liveness-light.ts [--skin] [--blinks]`: the faces v7 design figures, on TUNING data
 * only (engine/faces/README.md "Liveness v7"). Nothing held out or unseen is read here.
 *
 * --skin: the skin-tone gamut as captured (v3–v5) and white-balanced to the scene (v7), median over
 *   9 frames per capture, on (a) the labelled tuning clips (genuine and screen replays) as recorded and
 *   under four room-light tints applied to the whole frame, (b) the same genuine clips with the tint
 *   on the face only (a screen's own white point in an untinted room: must still dissent), and (c) the
 *   Replay-Attack train split (the public set's tuning part: 60 genuine, 60 prints at 2 fps), (d) LFW
 *   photos of tuning identities (every other one).
 * --blinks: labelled blinks found on the tuning blink clips as recorded, dim and dark
 *   (`tools/faces/testing/lighting.ts`), v4 vs v7 and the measured-and-rejected mesh-ratio view.
 * Both by default.
 */
import { modelsDir } from '../engine/assets.js';
import { median } from '../engine/faces/geometry.js';
import { decodeImage, scaleBox } from '../engine/faces/image.js';
import { evaluateLiveness } from '../engine/faces/liveness.js';
import { loadFaceModels } from '../engine/faces/models-bundle.js';
import { explainedSkinTone, skinToneFraction, whiteBalancedSkinTone } from '../engine/faces/screen-cues.js';
import { FACE_SETTINGS_V4, FACE_SETTINGS_V7, type FaceEngineSettings } from '../engine/faces/settings.js';
import { decodeClip } from '../tools/faces/testing/clips.js';
import { clipPath, frameSequenceFrames, LABELLED_NOW, labelledCapture, labelledCases, matchBlinks, unseenTuningCases } from '../tools/faces/testing/labelled.js';
import { fetchPublicFaces, publicFacePath } from '../tools/faces/public/fetch.js';
import { isHeldOutIdentity, loadPublicFaces } from '../tools/faces/public/sources.js';
import { DIM_LEVELS, dimFrames, TINTS, tintFrame } from '../tools/faces/testing/lighting.js';

const argv = process.argv.slice(2);
const doSkin = argv.includes('--skin') || !argv.includes('--blinks');
const doBlinks = argv.includes('--blinks') || !argv.includes('--skin');
const models = await loadFaceModels(modelsDir(), FACE_SETTINGS_V7);
const wb = FACE_SETTINGS_V7.v2!.attack.skinToneWhiteBalance!;
const bound = FACE_SETTINGS_V7.v2!.attack.minSkinToneFraction!;
const tuningClips = labelledCases().filter((c) => !c.held_out && (c.kind === 'genuine' || c.kind === 'screen_replay'));

/** Median over up to 9 frames of the raw and the white-balanced skin share. */
async function tone(frames: Buffer[], faceOnly?: readonly [number, number, number]): Promise<[number, number, number]> {
  const raw: number[] = [], bal: number[] = [], v7: number[] = [];
  for (const bytes of frames) {
    let img = await decodeImage(bytes, 480);
    let [face] = await models.frameDetector.detect(img);
    if (!face) continue;
    if (faceOnly) {
      const b = scaleBox(face.box, 1.2);
      img = await decodeImage(await tintFrame(bytes, faceOnly, b), 480);
      [face] = await models.frameDetector.detect(img);
      if (!face) continue;
    }
    raw.push(skinToneFraction(img, face.box));
    bal.push(whiteBalancedSkinTone(img, face.box, wb).fraction);
    v7.push(explainedSkinTone(raw[raw.length - 1]!, bal[bal.length - 1]!));
  }
  const m = (v: number[]) => median(v.filter(Number.isFinite));
  return [m(raw), m(bal), m(v7)];
}
const nine = (f: Buffer[]) => f.filter((_, i) => i % Math.max(1, Math.floor(f.length / 9)) === 0).slice(0, 9);

if (doSkin) {
  console.log(`# skin tone, raw vs white-balanced (${JSON.stringify(wb)}), dissent below ${bound}; ${new Date().toISOString()}`);
  const rows: { group: string; raw: number; bal: number; v7: number; id: string }[] = [];
  for (const c of tuningClips) {
    const frames = nine((await decodeClip(clipPath(c.file), { startS: c.start_s, durationS: c.duration_s, fps: 2, maxSide: 480 })).map((f) => f.image));
    const [r0, b0, v0] = await tone(frames);
    rows.push({ group: `${c.kind} clips as recorded`, raw: r0, bal: b0, v7: v0, id: c.id });
    for (const [name, g] of Object.entries(TINTS)) {
      const [r, b, v] = await tone(await Promise.all(frames.map((f) => tintFrame(f, g))));
      rows.push({ group: `${c.kind} clips, room lit ${name}`, raw: r, bal: b, v7: v, id: `${c.id} ${name}` });
      if (c.kind === 'genuine') {
        const [rf, bf, vf] = await tone(frames, g);
        rows.push({ group: `genuine clips, face only tinted (a screen's white point)`, raw: rf, bal: bf, v7: vf, id: `${c.id} face ${name}` });
      }
    }
  }
  for (const c of unseenTuningCases()) {
    const frames = nine(frameSequenceFrames(c.file, c.start_s, c.duration_s).map((f) => f.image));
    const [r, b, v] = await tone(frames);
    const scene = c.id.includes('controlled') ? 'controlled (orange-lit walls)' : 'adverse';
    rows.push({ group: `Replay-Attack train ${c.kind}, ${scene}`, raw: r, bal: b, v7: v, id: c.id });
  }
  const groups = [...new Set(rows.map((r) => r.group))];
  for (const g of groups) {
    const k = rows.filter((r) => r.group === g);
    const below = (f: (r: (typeof k)[number]) => number) => k.filter((r) => f(r) < bound).length;
    console.log(`${g.padEnd(64)} n=${String(k.length).padStart(3)}  dissent: as captured (v4) ${below((r) => r.raw)}, white-balanced only ${below((r) => r.bal)}, v7 (both off) ${below((r) => r.v7)}`);
  }
  if (argv.includes('--list')) for (const r of rows) console.log(`  ${r.id.padEnd(72)} as captured ${r.raw.toFixed(2)} balanced ${r.bal.toFixed(2)} v7 ${r.v7.toFixed(2)}`);
  // Real still faces (LFW, tuning identities, every other photo: bench:liveness's false-alarm check).
  const photos = loadPublicFaces().photos.filter((p) => p.set === 'lfw' && !isHeldOutIdentity(p.set, p.identity)).filter((_, i) => i % 2 === 0);
  if (fetchPublicFaces().missing.length) console.log('(LFW photos not fetched: npm run fetch-public-faces)');
  else {
    const lfw: [number, number, number][] = [];
    for (const p of photos) {
      const img = await decodeImage(publicFacePath(p), 480);
      const [face] = await models.frameDetector.detect(img);
      if (!face) continue;
      const r = skinToneFraction(img, face.box), b = whiteBalancedSkinTone(img, face.box, wb).fraction;
      if (Number.isFinite(r) || Number.isFinite(b)) lfw.push([r, b, explainedSkinTone(r, b)]);
    }
    const below = (j: number) => lfw.filter((x) => x[j]! < bound).length;
    console.log(`${'LFW still photos (tuning identities)'.padEnd(64)} n=${lfw.length}  dissent: as captured (v4) ${below(0)}, white-balanced only ${below(1)}, v7 (both off) ${below(2)}`);
  }
}

if (doBlinks) {
  const MESH: FaceEngineSettings = { ...FACE_SETTINGS_V7, version: 'faces-2026.11.7-mesh-ear', v2: { ...FACE_SETTINGS_V7.v2!, blink: { ...FACE_SETTINGS_V7.v2!.blink, meshEarDip: 0.15 } } };
  const variants: [string, FaceEngineSettings][] = [['v4', FACE_SETTINGS_V4], ['v7', FACE_SETTINGS_V7], ['v7 + mesh ratio (rejected)', MESH]];
  const cases = labelledCases().filter((c) => !c.held_out && c.kind === 'genuine' && c.blinks_s.length > 0);
  console.log(`\n# blinks on the tuning blink clips (${cases.map((c) => c.id).join(', ')}), without colour; ${new Date().toISOString()}`);
  const tot = new Map<string, { found: number; labelled: number; other: number; passed: number; n: number }>();
  for (const c of cases) {
    const { frames, challenge } = await labelledCapture(models, c, { light: false });
    for (const [level, lv] of [['as recorded', undefined], ...Object.entries(DIM_LEVELS)] as const) {
      const images = lv ? await dimFrames(frames.map((f) => f.image), lv) : frames.map((f) => f.image);
      const capture = frames.map((f, i) => ({ ...f, image: images[i]! }));
      for (const [name, settings] of variants) {
        const r = await evaluateLiveness(models, settings, { frames: capture, challenge, now: new Date(LABELLED_NOW.getTime() + 30_000), options: { withoutIllumination: true } });
        const events = ((r.outcome.evidence as { challenge?: { events: { step: string; start_ms: number; end_ms: number }[] } }).challenge?.events ?? []).filter((e) => e.step === 'blink');
        const { found, other: others } = matchBlinks(events, c.blinks_s);
        const other = others.length;
        const key = `${name} | ${level}`;
        const t = tot.get(key) ?? { found: 0, labelled: 0, other: 0, passed: 0, n: 0 };
        tot.set(key, { found: t.found + found, labelled: t.labelled + c.blinks_s.length, other: t.other + other, passed: t.passed + (r.outcome.status === 'passed' ? 1 : 0), n: t.n + 1 });
        console.log(`  ${c.id.padEnd(14)} ${level.padEnd(12)} ${name.padEnd(28)} ${r.outcome.status.padEnd(7)} blinks ${found}/${c.blinks_s.length}, other blink events ${other}`);
      }
    }
  }
  for (const [k, t] of tot) console.log(`${k.padEnd(44)} labelled blinks ${t.found}/${t.labelled}, other blink events ${t.other}, passed ${t.passed}/${t.n}`);
}
await models.release();
