/**
 * Face-match calibration on real public photos (issue 14): `npm run bench:face-match`, and the
 * first section of `npm run bench:faces`.
 *
 * Photos: `tools/faces/public/sources.json` (LFW: 1680 people, ≤ 4 photos each; Microsoft's Face
 * sample families: 6 people), materialised by `tools/faces/public/fetch.ts`. Identities are split
 * by `isHeldOutIdentity` (≈ 30 % held out) before anything is measured; the threshold is chosen
 * on the tuning split only, then the held-out split is read at that threshold.
 *
 * Two conditions, each over every pair inside a set:
 * - photo vs photo: the largest face of each (what `compareImages` does);
 * - photo vs ID-card portrait: the first photo of every person (by sha256) printed in grayscale on
 *   the synthetic card (`syntheticIdCard`) and found as `matchFaces` finds it (portrait box),
 *   against every photo of the set — the production comparison (selfie vs document), with the
 *   card's grayscale and JPEG loss. Genuine = the person's other photos.
 * Embeddings are cached by image sha256 + model pins (.data/cache/face-embeddings-*.bin): the
 * models are deterministic, so a re-run reads the same numbers; delete the file to recompute.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cacheDir } from '../engine/assets.js';
import { embedDocumentFace, embedLargestFace } from '../engine/faces/face-match.js';
import type { FaceModels } from '../engine/faces/models-bundle.js';
import type { FaceEngineSettings } from '../engine/faces/settings.js';
import { fetchPublicFaces, publicFacePath } from '../tools/faces/public/fetch.js';
import { rates, thresholdAtFar, type Scores } from '../tools/faces/public/calibration.js';
import { isHeldOutIdentity, loadPublicFaces, type PublicFace } from '../tools/faces/public/sources.js';

export { thresholdAtFar };
import { syntheticIdCard } from '../tools/faces/testing/document.js';

/** The false-accept rate the threshold is chosen at (stated before the calibration was run). */
export const CALIBRATION_FAR = 0.0001;


export interface ConditionResult {
  name: string;
  /** Impostor pairs of relatives (Microsoft's sample families, both splits): the hardest impostors here. */
  relatives?: number[];
  tuning: Scores;
  heldOut: Scores;
  /** Photos (or cards) on which no face was found: left out of every pair. */
  noFace: number;
  items: number;
}

const DIM = 512;

/** Embeddings of many images, cached on disk by (condition, image sha256, model pins). */
class EmbeddingCache {
  private readonly file: string;
  private readonly map = new Map<string, Float32Array | null>();
  private dirty = 0;

  constructor(settings: FaceEngineSettings) {
    const key = createHash('sha256')
      .update(JSON.stringify([settings.models.detector, settings.models.recognizer, settings.detectorInputSize, settings.detection, settings.documentMaxSide, 'card-v1']))
      .digest('hex')
      .slice(0, 16);
    mkdirSync(cacheDir(), { recursive: true });
    this.file = path.join(cacheDir(), `face-embeddings-${key}.bin`);
    if (existsSync(this.file)) {
      // Records: 32-byte key, 1 flag byte, then DIM float32 when the flag is 1.
      const buf = readFileSync(this.file);
      let o = 0;
      while (o + 33 <= buf.length) {
        const k = buf.subarray(o, o + 32).toString('hex');
        const has = buf[o + 32] === 1;
        o += 33;
        if (has) {
          this.map.set(k, new Float32Array(buf.buffer.slice(buf.byteOffset + o, buf.byteOffset + o + DIM * 4)));
          o += DIM * 4;
        } else this.map.set(k, null);
      }
    }
  }

  static key(condition: string, sha256: string): string {
    return createHash('sha256').update(`${condition}:${sha256}`).digest('hex');
  }

  async get(key: string, compute: () => Promise<Float32Array | null>): Promise<Float32Array | null> {
    if (this.map.has(key)) return this.map.get(key)!;
    const v = await compute();
    if (v && v.length !== DIM) throw new Error(`embedding of ${v.length} values, expected ${DIM}`);
    this.map.set(key, v);
    if (++this.dirty >= 200) this.save();
    return v;
  }

  save(): void {
    if (!this.dirty) return;
    const parts: Buffer[] = [];
    for (const [k, v] of this.map) {
      parts.push(Buffer.from(k, 'hex'), Buffer.from([v ? 1 : 0]));
      if (v) parts.push(Buffer.from(v.buffer, v.byteOffset, v.byteLength));
    }
    writeFileSync(this.file, Buffer.concat(parts));
    this.dirty = 0;
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

interface Item {
  face: PublicFace;
  heldOut: boolean;
  emb: Float32Array;
}

/** Every pair of (probe, gallery) items inside one set and one split; genuine when identities match. */
function pairScores(probes: Item[], gallery: Item[], symmetric: boolean): { tuning: Scores; heldOut: Scores } {
  const acc = { tuning: { same: [] as number[], diff: [] as number[] }, heldOut: { same: [] as number[], diff: [] as number[] } };
  for (let i = 0; i < probes.length; i++) {
    const p = probes[i]!;
    for (let j = symmetric ? i + 1 : 0; j < gallery.length; j++) {
      const g = gallery[j]!;
      if (g.face.set !== p.face.set || g.heldOut !== p.heldOut || g.face.sha256 === p.face.sha256) continue;
      const split = p.heldOut ? acc.heldOut : acc.tuning;
      (g.face.identity === p.face.identity ? split.same : split.diff).push(dot(p.emb, g.emb));
    }
  }
  const f = (s: { same: number[]; diff: number[] }): Scores => ({ same: Float64Array.from(s.same), diff: Float64Array.from(s.diff) });
  return { tuning: f(acc.tuning), heldOut: f(acc.heldOut) };
}

/** Runs both conditions over the public photos; throws when the photos are not fetched. */
export async function calibrate(models: FaceModels, settings: FaceEngineSettings, log: (s: string) => void = () => {}): Promise<ConditionResult[]> {
  const fetched = fetchPublicFaces();
  if (fetched.missing.length) throw new Error(`${fetched.missing.length} public face photos missing: fetch the repositories named in tools/faces/public/sources.json (see tools/faces/public/fetch.ts)`);
  const { photos } = loadPublicFaces();
  const cache = new EmbeddingCache(settings);
  const started = performance.now();
  const photoItems: Item[] = [];
  let noFace = 0;
  for (const [n, face] of photos.entries()) {
    const emb = await cache.get(EmbeddingCache.key('photo', face.sha256), () => embedLargestFace(models, settings, publicFacePath(face)));
    if (emb) photoItems.push({ face, heldOut: isHeldOutIdentity(face.set, face.identity), emb });
    else noFace++;
    if (n % 500 === 499) log(`  photos embedded: ${n + 1}/${photos.length} (${Math.round((performance.now() - started) / 1000)} s)`);
  }
  // One card per person: the first photo by sha256 (the manifest's order within a person).
  const firstOf = new Map<string, PublicFace>();
  for (const f of photos) if (!firstOf.has(`${f.set}/${f.identity}`)) firstOf.set(`${f.set}/${f.identity}`, f);
  const cardItems: Item[] = [];
  let noCardFace = 0;
  for (const [n, face] of [...firstOf.values()].entries()) {
    const emb = await cache.get(EmbeddingCache.key('card', face.sha256), async () => {
      const card = await syntheticIdCard(readFileSync(publicFacePath(face)));
      return embedDocumentFace(models, settings, card.image, card.portraitBox);
    });
    if (emb) cardItems.push({ face, heldOut: isHeldOutIdentity(face.set, face.identity), emb });
    else noCardFace++;
    if (n % 500 === 499) log(`  cards embedded: ${n + 1}/${firstOf.size} (${Math.round((performance.now() - started) / 1000)} s)`);
  }
  cache.save();
  const photoPairs = pairScores(photoItems, photoItems, true);
  const family = (f: PublicFace) => f.identity.split('-')[0];
  const fam = photoItems.filter((x) => x.face.set === 'azure-face');
  const relatives: number[] = [];
  for (let i = 0; i < fam.length; i++) for (let j = i + 1; j < fam.length; j++) if (fam[i]!.face.identity !== fam[j]!.face.identity && family(fam[i]!.face) === family(fam[j]!.face)) relatives.push(dot(fam[i]!.emb, fam[j]!.emb));
  const cardPairs = pairScores(cardItems, photoItems, false);
  return [
    { name: 'photo vs photo', ...photoPairs, noFace, items: photos.length, relatives },
    { name: 'ID-card portrait vs photo', ...cardPairs, noFace: noCardFace, items: firstOf.size },
  ];
}

const pct = (v: number, d = 1) => `${(v * 100).toFixed(d)} %`;

/** The report lines: TAR at FAR 0.1 % / 0.01 % per split, and both splits at `configured` (with its review band). */
export function report(results: ConditionResult[], configured: number, reviewBelow = configured): string[] {
  const out: string[] = [];
  for (const r of results) {
    const rel = r.relatives;
    out.push(`### ${r.name} (${r.items} ${r.name.startsWith('ID') ? 'cards' : 'photos'}, no face found on ${r.noFace})`);
    for (const [label, s] of [['tuning', r.tuning], ['held out', r.heldOut]] as const) {
      const line = [`${label}: ${s.same.length} genuine / ${s.diff.length} impostor pairs`];
      for (const far of [0.001, 0.0001]) {
        const t = thresholdAtFar(s.diff, far);
        const x = rates(s, t);
        line.push(`TAR ${pct(x.tar)} at FAR ${pct(far, 2)} (threshold ${t.toFixed(3)}, ${x.fa} of ${s.diff.length} impostors accepted)`);
      }
      out.push(line.join('; '));
    }
    for (const [label, s] of [['tuning', r.tuning], ['held out', r.heldOut]] as const) {
      const x = rates(s, configured);
      out.push(`${label} at threshold ${configured.toFixed(3)}: TAR ${pct(x.tar)} (${x.fr} of ${s.same.length} genuine rejected), FAR ${pct(x.far, 4)} (${x.fa} of ${s.diff.length} impostors accepted)`);
      if (reviewBelow < configured) {
        const band = (v: Float64Array) => v.filter((x) => x >= reviewBelow && x < configured).length;
        const failedSame = s.same.filter((x) => x < reviewBelow).length;
        out.push(`  review band [${reviewBelow.toFixed(3)}, ${configured.toFixed(3)}): genuine ${pct(band(s.same) / (s.same.length || 1))} to review, ${pct(failedSame / (s.same.length || 1))} failed; impostors ${pct(band(s.diff) / (s.diff.length || 1), 3)} to review (${band(s.diff)})`);
      }
    }
    if (rel?.length) {
      const sorted = [...rel].sort((a, b) => b - a);
      out.push(`relatives (parent/child, siblings, spouses of the sample families; both splits): ${rel.length} pairs, highest ${sorted.slice(0, 3).map((v) => v.toFixed(3)).join(', ')}; ${rel.filter((v) => v >= configured).length} at or above ${configured.toFixed(3)}, ${rel.filter((v) => v >= reviewBelow).length} at or above ${reviewBelow.toFixed(3)}`);
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { loadFaceModels } = await import('../engine/faces/models-bundle.js');
  const { modelsDir } = await import('../engine/assets.js');
  const { CURRENT_FACE_SETTINGS } = await import('../engine/faces/settings.js');
  const models = await loadFaceModels(modelsDir(), CURRENT_FACE_SETTINGS);
  const results = await calibrate(models, CURRENT_FACE_SETTINGS, console.log);
  const at = (far: number) => Math.max(...results.map((r) => thresholdAtFar(r.tuning.diff, far)));
  console.log(`# face-match calibration on real public photos (settings ${CURRENT_FACE_SETTINGS.version}, recogniser ${CURRENT_FACE_SETTINGS.models.recognizer.file})`);
  console.log(`tuning split, higher of the two conditions: threshold at FAR ${pct(CALIBRATION_FAR, 2)} ${at(CALIBRATION_FAR).toFixed(3)}, at FAR 0.10 % ${at(0.001).toFixed(3)}; configured: threshold ${CURRENT_FACE_SETTINGS.match.threshold}, review from ${CURRENT_FACE_SETTINGS.match.reviewBelow}`);
  for (const l of report(results, CURRENT_FACE_SETTINGS.match.threshold, CURRENT_FACE_SETTINGS.match.reviewBelow)) console.log(l);
  await models.release();
}
