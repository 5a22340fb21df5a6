/**
 * `npx tsx bench/engine-outputs.ts --out FILE [--cases 2 --documents 8]`
 *
 * Proof that a speed change changed no answer: runs every engine of the current profile on fixed
 * real inputs and writes each outcome (run times removed) and a sha256 of each derived image to a
 * JSON file. Run it on the code before and after a change and compare the files (`cmp`): equal
 * files mean identical outputs. Inputs: bench:cases' genuine applicant (document, authenticity,
 * liveness, face match), the first `--cases` labelled liveness captures of each kind (real clips,
 * bench/liveness-labels.json: genuine, replays, non-responses) and the first `--documents` real document photos (../shared/documents-real)
 * through the document and authenticity engines. Every input and `now` is fixed, so two runs of
 * the same code give the same file.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CURRENT_ENGINE_PROFILE } from '../domain/engine-profile.js';
import { ZLivenessChallenge, ZLivenessFrameMeta } from '../domain/liveness.js';
import { createAuthenticityEngine } from '../engine/authenticity/index.js';
import { sharedDir } from '../engine/assets.js';
import { createDocumentEngine } from '../engine/document/index.js';
import { createFaceEngine } from '../engine/faces/index.js';
import { loadFaceModels } from '../engine/faces/models-bundle.js';
import { engineProfile } from '../engine/profiles.js';
import { modelsDir } from '../engine/assets.js';
import { LABELLED_NOW, labelledCapture, labelledCases } from '../tools/faces/testing/labelled.js';
import { prepareGenuineApplicant } from './genuine-case.js';

const { values } = parseArgs({ options: { out: { type: 'string' }, cases: { type: 'string', default: '2' }, documents: { type: 'string', default: '8' } } });
if (!values.out) throw new Error('--out FILE is required');
const profile = engineProfile(CURRENT_ENGINE_PROFILE);
const now = new Date('2026-11-25T06:00:00Z');

function stable(v: unknown): unknown {
  if (Buffer.isBuffer(v)) return `sha256:${createHash('sha256').update(v).digest('hex')}`;
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === 'object' && !(v instanceof Date)) return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'duration_ms' && k !== 'ms').map(([k, x]) => [k, stable(x)]));
  return v;
}

const [document, faces, authenticity] = await Promise.all([createDocumentEngine(profile.document), createFaceEngine(profile.faces), createAuthenticityEngine(profile.authenticity)]);
const out: Record<string, unknown> = { profile: profile.id };
try {
  // The genuine applicant, with the document photo encoded at a fixed time (its EXIF date).
  const applicant = await prepareGenuineApplicant();
  const photo = await applicant.photographNow(now);
  const challenge = ZLivenessChallenge.parse({ ...applicant.challenge, issued_at: new Date(now.getTime() - 60_000).toISOString(), deadline: new Date(now.getTime() + 600_000).toISOString() });
  const frames = applicant.frames.map((f) => ({ image: f.image, meta: ZLivenessFrameMeta.parse(f.meta) })).sort((a, b) => a.meta.timestamp_ms - b.meta.timestamp_ms);
  const d = await document.analyze({ front: photo, declared: { country: 'MOZ', type: 'passport' }, accepted: [{ country: 'MOZ', types: ['passport'] }], applicant: applicant.identity, now });
  const a = await authenticity.analyze({ bytes: photo, kind: 'document_front', sessionStartedAt: new Date(now.getTime() - 60_000), submittedAt: now });
  const l = await faces.evaluateLiveness({ frames, challenge, now });
  const m = await faces.matchFaces({ selfie: l.bestFrame!, document: d.normalized!, portraitBox: d.portrait });
  out.genuine = stable({ document: d, authenticity: a, liveness: l, faceMatch: m });

  // Labelled real clips (genuine and attacks) through liveness.
  const models = await loadFaceModels(modelsDir(), profile.faces);
  const liveness: Record<string, unknown> = {};
  const byKind = new Map<string, number>();
  const picked = labelledCases().filter((x) => !x.file.startsWith('public/') && (byKind.set(x.kind, (byKind.get(x.kind) ?? 0) + 1).get(x.kind)! <= Number(values.cases)));
  for (const c of picked) {
    const cap = await labelledCapture(models, c, { light: true });
    liveness[c.id] = stable(await faces.evaluateLiveness({ frames: cap.frames, challenge: cap.challenge, now: new Date(LABELLED_NOW.getTime() + 30_000) }));
  }
  await models.release();
  out.liveness = liveness;

  // Real document photos through the document and authenticity engines (declared as what the file name says, or a passport).
  const dir = path.join(sharedDir(), 'documents-real');
  const docs: Record<string, unknown> = {};
  for (const f of readdirSync(dir).filter((x) => /\.(jpe?g|png)$/i.test(x)).sort().slice(0, Number(values.documents))) {
    const bytes = readFileSync(path.join(dir, f));
    const dr = await document.analyze({ front: bytes, declared: { country: 'UTO', type: 'passport' }, accepted: [{ country: 'UTO', types: ['passport'] }], now }).catch((e: Error) => ({ error: e.message }));
    const ar = await authenticity.analyze({ bytes, kind: 'document_front', sessionStartedAt: new Date(now.getTime() - 60_000), submittedAt: now }).catch((e: Error & { code?: string }) => ({ error: e.code ?? e.message }));
    docs[f] = stable({ document: dr, authenticity: ar });
  }
  out.documents = docs;
} finally {
  await Promise.all([document.close(), faces.close(), authenticity.close()]);
}
writeFileSync(values.out, `${JSON.stringify(out, null, 1)}\n`);
console.log(`wrote ${values.out}`);
