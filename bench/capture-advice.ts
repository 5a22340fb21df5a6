/**
 * `npm run bench:capture-advice -- --real <dir> [--corpus <dir>]`: the hosted page's quick check
 * (engine/document/advice.ts) on real specimen photos and scans, against the full engine's MRZ
 * scan of the same image (the current engine profile's document engine: what the Case will be judged
 * with; 2.0 before capture-advice 1.1, 2.2 until 2026-11-29). Prints, per split (tuning / HELD-OUT, the split of
 * bench/documents-real.ts): latency p50/p95, how often the quick check says the MRZ is missing or
 * unreadable on a photo the full engine reads (false alarms) and how often it warns on one the full
 * engine cannot read; then the same photos made blurry and cut off, and synthetic renders.
 * Nothing here sets a threshold: the settings are the current ones (CAPTURE_ADVICE), or `--settings 1.0|1.1|1.2`.
 * `--rotate D`: every TUNING photo turned D degrees (bench/documents-real.ts `turnedPrint`), both the
 * quick check and the full scan reading the turned photo; held-out photos are left out, and the blurred
 * and cut variants are not made. A stress measure of photos taken at an angle, never of held-out images.
 */
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { adviseCapture, CAPTURE_ADVICE, CAPTURE_ADVICE_BY_NAME, type CaptureAdviceResult } from '../engine/document/advice.js';
import { CURRENT_ENGINE_PROFILE } from '../domain/engine-profile.js';
import { createDocumentEngine, DOCUMENT_SETTINGS_V4, type MrzScan } from '../engine/document/index.js';
import { engineProfile } from '../engine/profiles.js';
import { mrzWorker } from '../engine/document/ocr/workers.js';
import { normalizeImage } from '../engine/document/image/normalize.js';
import { isHeldOut, turnedPrint, type RealTruth } from './documents-real.js';
import type { CorpusEntry } from '../scripts/corpus.js';

const argv = process.argv.slice(2);
const opt = (n: string) => (argv.includes(`--${n}`) ? argv[argv.indexOf(`--${n}`) + 1]! : undefined);
const realDir = path.resolve(opt('real') ?? '../shared/documents-real');
const corpusDir = opt('corpus') ? path.resolve(opt('corpus')!) : undefined;
const rotate = opt('rotate') !== undefined ? Number(opt('rotate')) : undefined;
if (rotate !== undefined && !Number.isFinite(rotate)) throw new Error('--rotate takes degrees');
const adviceSettings = opt('settings') ? CAPTURE_ADVICE_BY_NAME[opt('settings')!] : CAPTURE_ADVICE;
if (!adviceSettings) throw new Error(`--settings must be one of ${Object.keys(CAPTURE_ADVICE_BY_NAME).join(', ')}`);

const tess = mrzWorker(DOCUMENT_SETTINGS_V4.tessdata.mrzSha256);
// A false alarm is advice against a photo the Case's own scan reads, so the comparison is the current profile's scan.
const fullSettings = engineProfile(CURRENT_ENGINE_PROFILE).document;
const engine = await createDocumentEngine(fullSettings);
process.stdout.write(`capture advice ${adviceSettings.version} against the full scan of ${fullSettings.version} (${CURRENT_ENGINE_PROFILE})${rotate !== undefined ? `, tuning photos turned ${rotate}°` : ''}\n\n`);

interface Row { file: string; set: string; variant: string; full?: { valid: boolean; exact: boolean; reason: string | null }; advice: CaptureAdviceResult; ms: number; cpuMs: number }
const rows: Row[] = [];

async function advise(bytes: Buffer, expectMrz: boolean): Promise<{ advice: CaptureAdviceResult; ms: number; cpuMs: number }> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  // No read timeout here: the bench measures what the check decides and how long it takes; the
  // api's timeout (readTimeoutMs) would turn a slow read on a loaded machine
  // into "not judged" and hide false alarms. Reads over that limit are counted instead.
  const advice = await adviseCapture(bytes, expectMrz, tess, { ...adviceSettings, readTimeoutMs: 120_000 });
  const c = process.cpuUsage(c0);
  return { advice, ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
}

/** Upright pixels (EXIF applied), so that the variants cut the picture the applicant saw. */
async function variants(bytes: Buffer): Promise<Record<string, Buffer>> {
  // normalizeImage decodes the BMPs of the real set too, and applies EXIF orientation.
  const img = await normalizeImage(bytes, { ...adviceSettings, acceptBmp: true });
  const { width, height } = img;
  const up = await sharp(img.data, { raw: { width, height, channels: 3 } }).png().toBuffer();
  const sigma = Math.max(width, height) / 400; // the same apparent blur whatever the resolution
  return {
    blurred: await sharp(up).blur(sigma).jpeg({ quality: 90 }).toBuffer(),
    // The right 40 % cut away: the MRZ lines run into the edge (in a sideways photo, the page's top or bottom is cut instead).
    cut: await sharp(up).extract({ left: 0, top: 0, width: Math.round(width * 0.6), height }).jpeg({ quality: 90 }).toBuffer(),
  };
}

const truths = readFileSync(path.join(realDir, 'ground_truth.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RealTruth);
await adviseCapture(readFileSync(path.join(realDir, truths[0]!.file)), true, tess); // warm the worker
for (const t of truths) {
  const set = isHeldOut(t) ? 'held-out' : 'tuning';
  if (rotate !== undefined && set === 'held-out') continue;
  const read = readFileSync(path.join(realDir, t.file));
  const bytes = rotate === undefined ? read : await turnedPrint(read, rotate);
  if (!bytes) continue;
  let scan: MrzScan | null = null;
  try { scan = await engine.scanMrz(bytes); } catch { /* counted as not read */ }
  const lines = scan?.parsed?.lines ?? [];
  const exact = lines.length === t.mrz_lines.length && t.mrz_lines.every((l, i) => lines[i] === l);
  const full = { valid: !!scan?.valid, exact, reason: scan?.reason ?? (scan ? null : 'error') };
  rows.push({ file: t.file, set, variant: 'original', full, ...(await advise(bytes, true)) });
  if (rotate === undefined) for (const [variant, b] of Object.entries(await variants(bytes))) rows.push({ file: t.file, set, variant, ...(await advise(b, true)) });
  process.stderr.write(`\rreal ${rows.filter((r) => r.variant === 'original').length}/${truths.length}`);
}
process.stderr.write('\n');

if (corpusDir && rotate === undefined && existsSync(path.join(corpusDir, 'index.json'))) {
  const entries = (JSON.parse(readFileSync(path.join(corpusDir, 'index.json'), 'utf8')) as { entries: CorpusEntry[] }).entries.filter((e) => !e.variant.startsWith('forged'));
  for (const e of entries) {
    const truth = JSON.parse(readFileSync(path.join(corpusDir, e.truth), 'utf8')) as { template: string };
    const passport = /passport/.test(truth.template);
    // The page with the MRZ: a passport's front, an ID card's back.
    const file = passport ? e.front : e.back;
    if (!file) continue;
    const bytes = readFileSync(path.join(corpusDir, file));
    let scan: MrzScan | null = null;
    try { scan = await engine.scanMrz(bytes); } catch { /* not read */ }
    rows.push({ file, set: 'synthetic', variant: e.variant, full: { valid: !!scan?.valid, exact: !!scan?.valid, reason: scan?.reason ?? null }, ...(await advise(bytes, true)) });
  }
}
await tess.close();
await engine.close();

const q = (v: number[], p: number) => { const s = [...v].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0; };
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(0)} % (${a}/${b})` : 'n/a');
const has = (r: Row, i: string) => r.advice.issues.includes(i as never);
// document_cut_off is only said of an MRZ that could not be read at the photo's edge.
const mrzWarn = (r: Row) => has(r, 'mrz_not_found') || has(r, 'mrz_unreadable') || has(r, 'document_cut_off');
const anyWarn = (r: Row) => r.advice.issues.length > 0;

const out: string[] = [];
out.push(`# Capture advice (${adviceSettings.version}) on real images (${realDir})${rotate !== undefined ? `, tuning photos turned ${rotate}°` : ''}`, '');
out.push('Latency is the whole quick check (decode, blur, band search, one or two reads) in this process; CPU counts every thread.', '');
out.push('| set | photos | wall p50 | wall p95 | CPU p50 | CPU p95 | over the 2.5 s deadline (wall) | read stage over readTimeoutMs | full engine reads (valid) | MRZ warning (not found, unreadable, cut off) on a photo the full engine reads = false alarm | any advice on it | MRZ warning where the full engine does not read |');
out.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
const summary = (label: string, rs: Row[]) => {
  if (!rs.length) return;
  const read = rs.filter((r) => r.full?.valid), unread = rs.filter((r) => !r.full?.valid);
  out.push(`| ${label} | ${rs.length} | ${q(rs.map((r) => r.ms), 0.5).toFixed(0)} ms | ${q(rs.map((r) => r.ms), 0.95).toFixed(0)} ms | ${q(rs.map((r) => r.cpuMs), 0.5).toFixed(0)} ms | ${q(rs.map((r) => r.cpuMs), 0.95).toFixed(0)} ms | ${rs.filter((r) => r.ms > 2500).length} | ${rs.filter((r) => r.advice.timings.read > adviceSettings.readTimeoutMs).length} | ${pct(read.length, rs.length)} | ${pct(read.filter(mrzWarn).length, read.length)} | ${pct(read.filter(anyWarn).length, read.length)} | ${pct(unread.filter(mrzWarn).length, unread.length)} |`);
};
const originals = rows.filter((r) => r.variant === 'original');
summary('tuning', originals.filter((r) => r.set === 'tuning'));
summary('**held-out**', originals.filter((r) => r.set === 'held-out'));
summary('all real', originals);
summary('synthetic renders', rows.filter((r) => r.set === 'synthetic'));
out.push('', '## Made worse on purpose (same real photos)', '');
out.push('| variant | set | photos | blurry | document_cut_off | mrz_not_found | mrz_unreadable | no advice | wall p50 | wall p95 |', '|---|---|---|---|---|---|---|---|---|---|');
for (const v of ['original', 'blurred', 'cut']) for (const set of ['tuning', 'held-out']) {
  const rs = rows.filter((r) => r.variant === v && r.set === set);
  out.push(`| ${v} | ${set} | ${rs.length} | ${pct(rs.filter((r) => has(r, 'blurry')).length, rs.length)} | ${pct(rs.filter((r) => has(r, 'document_cut_off')).length, rs.length)} | ${pct(rs.filter((r) => has(r, 'mrz_not_found')).length, rs.length)} | ${pct(rs.filter((r) => has(r, 'mrz_unreadable')).length, rs.length)} | ${pct(rs.filter((r) => !anyWarn(r)).length, rs.length)} | ${q(rs.map((r) => r.ms), 0.5).toFixed(0)} ms | ${q(rs.map((r) => r.ms), 0.95).toFixed(0)} ms |`);
}
const syn = rows.filter((r) => r.set === 'synthetic');
if (syn.length) {
  out.push('', '## Synthetic renders by degradation', '', '| variant | renders | full engine valid | advice (issue: count) | wall p50 |', '|---|---|---|---|---|');
  const kinds = [...new Set(syn.map((r) => r.variant.split(':')[0]!))];
  for (const k of kinds) {
    const rs = syn.filter((r) => r.variant.split(':')[0] === k);
    const counts = new Map<string, number>();
    for (const r of rs) for (const i of r.advice.issues) counts.set(i, (counts.get(i) ?? 0) + 1);
    out.push(`| ${k} | ${rs.length} | ${rs.filter((r) => r.full?.valid).length} | ${[...counts].map(([i, n]) => `${i}: ${n}`).join(', ') || 'none'} | ${q(rs.map((r) => r.ms), 0.5).toFixed(0)} ms |`);
  }
}
out.push('', '## Per real photo', '', '| image | set | variant | full engine | advice | sharpness | bands | checks | edge gap | ms (decode/blur/locate/read) |', '|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows.filter((x) => x.set !== 'synthetic')) {
  const m = r.advice.metrics, t = r.advice.timings;
  out.push(`| ${r.file.slice(0, 60)} | ${r.set} | ${r.variant} | ${r.full ? (r.full.valid ? 'valid' : r.full.reason) : ''} | ${r.advice.issues.join(', ') || '—'} | ${m.sharpness} | ${m.mrzBands ?? ''} | ${m.mrzChecks ? m.mrzChecks.join('/') : ''} | ${m.mrzEdgeGap ?? ''} | ${r.ms.toFixed(0)} (${t.decode}/${t.sharpness}/${t.locate}/${t.read}) |`);
}
process.stdout.write(out.join('\n') + '\n');
