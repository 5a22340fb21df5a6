/**
 * Real-image part of `npm run bench:documents -- --real <dir>`: specimen photos and scans with
 * ground-truth MRZ lines (`ground_truth.jsonl`, one object per image: file, mrz_lines, format,
 * capture). Images are split once by a fixed rule into a tuning set and a HELD-OUT set (grouped
 * by document, so near-duplicates never straddle the split); the held-out figures are printed
 * separately and nothing was tuned on them.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { wilson95 } from './stats.js';
import { REPO_ROOT, sharedDir } from '../engine/assets.js';
import { DEFAULT_DOCUMENT_SETTINGS, type DocumentEngine, type MrzScan } from '../engine/document/index.js';
import type { ScanStages } from '../engine/document/mrz/scan.js';
import { homography, warp, type Point } from '../engine/document/image/warp.js';
import { decodeBmp, isBmp } from '../engine/document/image/bmp.js';
import { degrade, degradationFor, type DegradationKind, type Severity } from '../tools/corpus/index.js';

export interface RealTruth { file: string; mrz_lines: string[]; format: string; capture?: string; checks_valid?: boolean; /** Other MRZs in the same picture that count as right too (two cards in one photo). */ mrz_alternatives?: string[][] }

/**
 * Held out iff the first byte of sha256(second MRZ line) is below 0x80. Keyed on the document,
 * not the file, so the four EXIF-rotated copies of one picture land on the same side; fixed
 * before any tuning and never changed (a new image joins whichever side its hash says).
 */
export function isHeldOut(t: RealTruth): boolean {
  return createHash('sha256').update(t.mrz_lines[1] ?? t.file).digest()[0]! < 0x80;
}

/**
 * The TUNING images of both real sets with their truth: ../shared/documents-real (held-out images
 * never) and .data/documents-public-tuning when fetched; images whose file is absent are left out.
 * What the line and read benches (`bench:mrz-lines`, `bench:mrz-reads`) measure on.
 */
export function tuningImages(): { dirs: string[]; images: { dir: string; t: RealTruth }[] } {
  const dirs = [path.join(sharedDir(), 'documents-real'), path.join(REPO_ROOT, '.data', 'documents-public-tuning')].filter((d) => existsSync(path.join(d, 'ground_truth.jsonl')));
  const images = dirs.flatMap((dir) => readFileSync(path.join(dir, 'ground_truth.jsonl'), 'utf8').trim().split('\n').map((l) => ({ dir, t: JSON.parse(l) as RealTruth })))
    .filter(({ dir, t }) => t.mrz_lines?.length && !isHeldOut(t) && existsSync(path.join(dir, t.file)));
  return { dirs, images };
}

export interface RealRow {
  file: string; set: 'tuning' | 'held-out' | 'public'; format: string; capture: string;
  found: boolean; linesTotal: number; linesExact: number; docExact: boolean; valid: boolean; silent: boolean;
  reason: string | null; ms: number; cpuMs: number; attempts: number;
  /** The truth's own check digits hold (ground truth `checks_valid`; absent: not recorded). */
  checksValid?: boolean;
  /** Wall ms per stage of the scan (`MrzScan.stageMs`). */
  stages?: ScanStages;
  /** The lines reported (`compareRows`: versions compared report by report). */
  reported?: string[];
}

/**
 * `unseen`: every image is reported as the second held-out set ('public'), added before any
 * result on it was looked at and never tuned on.
 */
/**
 * A tuning image as small print (`--scale`, the stress sets of document engine 3.0): scaled by
 * `scale` (EXIF orientation applied) and saved at JPEG quality 60. Null for a format sharp does not
 * decode (BMP): such images are left out of scaled runs.
 */
export async function smallPrint(bytes: Buffer, scale: number): Promise<Buffer | null> {
  try {
    const img = sharp(bytes).rotate();
    const meta = await img.metadata();
    const width = meta.autoOrient?.width ?? meta.width;
    return await img.resize(Math.max(16, Math.round(width * scale))).jpeg({ quality: 60 }).toBuffer();
  } catch {
    return null;
  }
}

/**
 * `--line-px N` (issue 12 item 1: "MRZ character height down to about 8 px"): each tuning image made
 * small print of a given MRZ line height instead of a given fraction of its width, so that a large
 * scan and a small photo are stressed alike. `reference` measures the line height at full size: the
 * locator's mean MRZ line height (ink height of the band's lines, about the glyph height) of its
 * scan, in its working image. Pinned to one settings version (the bench passes 3.17's), so the
 * stress set does not change with the engine under test. Null (the image left out) where the
 * reference finds no band or sharp cannot decode the image; lines already `px` or smaller are read
 * at full size.
 */
export interface LinePx { px: number; reference: DocumentEngine }

export async function lineHeightPrint(bytes: Buffer, linePx: LinePx): Promise<Buffer | null> {
  const measured = await linePx.reference.scanMrz(bytes).catch(() => null);
  const h = measured?.band?.lineHeight;
  if (!h) return null;
  // The band is measured in the engine's working image, which is the upload fitted inside
  // `workingMaxSide`; the factor applies to the upload itself.
  const meta = await sharp(bytes).metadata().catch(() => null);
  if (!meta) return null;
  const working = Math.min(1, linePx.reference.settings.workingMaxSide / Math.max(meta.width, meta.height));
  return h <= linePx.px ? bytes : smallPrint(bytes, (working * linePx.px) / h);
}

/**
 * A tuning image turned (`--rotate`, issue 12 item 1: any quarter turn plus skew up to ±20°): EXIF
 * orientation applied, turned by `degrees` clockwise with the corners filled mid-grey, saved at JPEG
 * quality 90 (the turn is the stress, not the compression). A turn that is not a quarter turn is made
 * at twice the size and brought back with Lanczos-3, so that it blurs the print less than one
 * bilinear resampling would: a camera held askew resamples nothing, and the engine's own turn is the
 * resampling being measured. Null for a format sharp does not decode.
 */
export async function turnedPrint(bytes: Buffer, degrees: number): Promise<Buffer | null> {
  try {
    const upright = await sharp(bytes).rotate().toBuffer();
    const fill = { background: { r: 128, g: 128, b: 128 } };
    if (degrees % 90 === 0) return await sharp(upright).rotate(degrees, fill).jpeg({ quality: 90 }).toBuffer();
    const { width } = await sharp(upright).metadata();
    const big = await sharp(upright).resize(width * 2, null, { kernel: 'lanczos3' }).toBuffer();
    const turned = await sharp(big).rotate(degrees, fill).toBuffer({ resolveWithObject: true });
    return await sharp(turned.data).resize(Math.round(turned.info.width / 2), null, { kernel: 'lanczos3' }).jpeg({ quality: 90 }).toBuffer();
  } catch {
    return null;
  }
}

/** The edge of the frame `--keystone` narrows, and by what fraction. */
export type KeystoneSide = 'top' | 'bottom' | 'left' | 'right';
export interface Keystone { side: KeystoneSide; k: number }

/**
 * The map (for `warp`) from a W × H frame seen with `side` narrowed by the fraction `k` back to the
 * frame as printed: the narrowed edge's corners move in by k/2 of its length each.
 */
export function keystoneToSource(W: number, H: number, side: KeystoneSide, k: number): number[] {
  const s = k / 2;
  const seen: Record<KeystoneSide, Point[]> = {
    top: [[W * s, 0], [W * (1 - s), 0], [W, H], [0, H]],
    bottom: [[0, 0], [W, 0], [W * (1 - s), H], [W * s, H]],
    left: [[0, H * s], [W, 0], [W, H], [0, H * (1 - s)]],
    right: [[0, 0], [W, H * s], [W, H * (1 - s)], [0, H]],
  };
  return homography(seen[side], [[0, 0], [W, 0], [W, H], [0, H]]);
}

/**
 * A tuning image under perspective (`--keystone SIDE[:K]`): EXIF orientation applied, the frame seen with
 * one edge (`top`, `bottom`, `left`, `right`) narrowed by the fraction `k` (a camera tilted about a
 * horizontal or vertical axis), corners filled mid-grey, saved at JPEG quality 90. Only full pages are a
 * fair test: on a crop of the MRZ alone, 20 % of a 1 100 × 146 frame shears each glyph by tens of
 * degrees, which no camera does to so small a region. Null for a format sharp does not decode.
 */
export async function keystonedPrint(bytes: Buffer, side: KeystoneSide, k: number): Promise<Buffer | null> {
  try {
    const { data, info } = await sharp(bytes).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const W = info.width, H = info.height;
    const img = warp({ data, width: W, height: H, channels: 3 }, keystoneToSource(W, H, side, k), W, H, [128, 128, 128]);
    return await sharp(img.data, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
  } catch {
    return null;
  }
}

/**
 * The photometric defects of the synthetic corpus (tools/corpus/degrade.ts, the same parameters per
 * severity) that `--degrade KIND[:SEVERITY]` lays over real tuning images: the shadows, glare, JPEG
 * artefacts, defocus, sensor noise and low resolution that issue 12 item 1 names, on print that is
 * real. Turns and perspective have their own options (`--rotate`, `--keystone`).
 */
export const REAL_DEGRADATIONS = ['blur', 'noise', 'jpeg', 'uneven_light', 'glare', 'low_resolution'] as const satisfies readonly DegradationKind[];
export interface RealDegradation { kind: (typeof REAL_DEGRADATIONS)[number]; severity: Severity }

/**
 * A real image as sharp input: Regula's samples are BMPs (named .jpg), which sharp's libvips cannot load,
 * so they go through the engine's own decoder, at the engine's pixel limit.
 */
export function decodedInput(bytes: Buffer): Sharp {
  const bmp = isBmp(bytes) ? decodeBmp(bytes, DEFAULT_DOCUMENT_SETTINGS.maxInputPixels) : null;
  return bmp ? sharp(bmp.data, { raw: { width: bmp.width, height: bmp.height, channels: bmp.channels } }) : sharp(bytes);
}

/**
 * A tuning image with one corpus degradation (`--degrade`): EXIF orientation applied, the defect drawn
 * with a seed taken from the file name (the same picture gets the same shadow angle, glare spot and
 * noise on every run), saved at JPEG quality 90 unless the defect is the JPEG itself. Null for a
 * format neither sharp nor the engine's BMP decoder reads.
 */
export async function degradedPrint(bytes: Buffer, file: string, d: RealDegradation): Promise<Buffer | null> {
  try {
    const upright = await decodedInput(bytes).rotate().removeAlpha().png().toBuffer();
    const seed = createHash('sha256').update(file).digest().readUInt32BE(0);
    // The quad is not used by the photometric defects (low_resolution scales it along, unused here).
    const scene = await degrade({ image: upright, quad: [] }, degradationFor(d.kind, d.severity, seed));
    return d.kind === 'jpeg' ? scene.image : await sharp(scene.image).jpeg({ quality: 90 }).toBuffer();
  } catch {
    return null;
  }
}

export async function runRealBench(dir: string, engine: DocumentEngine, onProgress?: (n: number, total: number) => void, unseen = false, tuningOnly = false, scale?: number, rotate?: number, keystone?: Keystone, linePx?: LinePx, degradation?: RealDegradation): Promise<RealRow[]> {
  // Scaled and turned images are a tuning-side measure: never of held-out or unseen images.
  if (scale !== undefined && (unseen || !tuningOnly)) throw new Error('--scale reads tuning images only: use it with --tuning-only and without --public');
  if (rotate !== undefined && (unseen || !tuningOnly)) throw new Error('--rotate reads tuning images only: use it with --tuning-only and without --public');
  if (keystone !== undefined && (unseen || !tuningOnly)) throw new Error('--keystone reads tuning images only: use it with --tuning-only and without --public');
  if (linePx !== undefined && (unseen || !tuningOnly)) throw new Error('--line-px reads tuning images only: use it with --tuning-only and without --public');
  if (degradation !== undefined && (unseen || !tuningOnly)) throw new Error('--degrade reads tuning images only: use it with --tuning-only and without --public');
  const truths = readFileSync(path.join(dir, 'ground_truth.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RealTruth).filter((t) => !tuningOnly || !isHeldOut(t));
  const rows: RealRow[] = [];
  // Warm the tesseract worker so the first image does not carry its start-up.
  await engine.scanMrz(readFileSync(path.join(dir, truths[0]!.file))).catch(() => undefined);
  for (const t of truths) {
    const read = readFileSync(path.join(dir, t.file));
    const small = linePx !== undefined ? await lineHeightPrint(read, linePx) : scale === undefined ? read : await smallPrint(read, scale);
    const turned = rotate === undefined || !small ? small : await turnedPrint(small, rotate);
    const warped = keystone === undefined || !turned ? turned : await keystonedPrint(turned, keystone.side, keystone.k);
    const bytes = degradation === undefined || !warped ? warped : await degradedPrint(warped, t.file, degradation);
    if (!bytes) continue;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    let scan: MrzScan | null = null;
    let error: string | null = null;
    try {
      scan = await engine.scanMrz(bytes);
    } catch (err) {
      error = (err as { code?: string }).code ?? 'internal_error';
    }
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const lines = scan?.parsed?.lines ?? [];
    // The truth the read is scored against: the listed MRZ, or an alternative the read matches better.
    const truthLines = [t.mrz_lines, ...(t.mrz_alternatives ?? [])].map((m) => ({ m, n: m.filter((l, i) => lines[i] === l).length })).sort((a, b) => b.n - a.n)[0]!.m;
    const exact = truthLines.filter((l, i) => lines[i] === l).length;
    const docExact = exact === truthLines.length && lines.length === truthLines.length;
    rows.push({
      file: t.file, set: unseen ? 'public' : isHeldOut(t) ? 'held-out' : 'tuning', format: t.format, capture: t.capture ?? 'unknown',
      found: !!scan?.parsed, linesTotal: truthLines.length, linesExact: exact, docExact,
      valid: !!scan?.valid, silent: !!scan?.valid && !docExact, reason: error ?? scan?.reason ?? null,
      ms, cpuMs: (cpu.user + cpu.system) / 1000, attempts: scan?.attempts.length ?? 0, reported: lines, stages: scan?.stageMs, checksValid: t.checks_valid,
    });
    onProgress?.(rows.length, truths.length);
  }
  return rows;
}

/**
 * The machine, in the bench's own terms: CPU ms of one scan of a fixed image, median of `runs` after a
 * warm-up. The machines these runs get differ by about two to one per core, so a latency figure is
 * quoted with this beside it, and as a multiple of it, to compare runs across machines.
 */
export async function machineReference(engine: DocumentEngine, bytes: Buffer, runs = 5): Promise<number> {
  await engine.scanMrz(bytes);
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    await engine.scanMrz(bytes);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return q(cpu, 0.5);
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
/** A rate with its count and 95 % interval: documents are the independent unit (lines of one document are not). */
const withCi = (a: number, b: number) => { const w = wilson95(a, b); return b ? `${pct(a, b)} (${a}/${b}; 95% CI ${w.lo.toFixed(0)}–${w.hi.toFixed(0)}%)` : 'n/a'; };
const q = (v: number[], p: number) => { const s = [...v].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0; };

/**
 * Report by report, what changed between two runs of the same images (`--compare OLD.json`, a copy of an
 * earlier run's `.data/bench-documents-real.json`): totals of both, then every image whose reported lines,
 * validity, reason or exact lines differ, and images only one run read. How a version's effect is proven
 * output for output rather than inferred from equal totals.
 */
export function compareRows(before: RealRow[], after: RealRow[]): string {
  const totals = (rs: RealRow[]) => `lines ${rs.reduce((n, r) => n + r.linesExact, 0)}/${rs.reduce((n, r) => n + r.linesTotal, 0)}, documents ${rs.filter((r) => r.docExact).length}/${rs.length}, valid ${rs.filter((r) => r.valid).length}, silent ${rs.filter((r) => r.silent).length}`;
  const old = new Map(before.map((r) => [`${r.set}:${r.file}`, r]));
  const seen = new Set<string>();
  const out = [`# Compared with an earlier run`, '', `before: ${totals(before)}`, `after:  ${totals(after)}`, ''];
  const fields = ['reported', 'valid', 'reason', 'linesExact'] as const;
  for (const r of after) {
    const key = `${r.set}:${r.file}`;
    seen.add(key);
    const o = old.get(key);
    if (!o) { out.push(`- only after: ${r.file}`); continue; }
    const changed = fields.filter((f) => JSON.stringify(o[f] ?? null) !== JSON.stringify(r[f] ?? null));
    if (changed.length) out.push(`- ${r.file} (${r.set}): ${changed.map((f) => `${f} ${JSON.stringify(o[f] ?? null)} -> ${JSON.stringify(r[f] ?? null)}`).join('; ')}`);
  }
  for (const [key, o] of old) if (!seen.has(key)) out.push(`- only before: ${o.file}`);
  if (out.length === 5) out.push('no report changed');
  return out.join('\n');
}

/** The three sets as the per-set tables name them. */
const SET_LABELS = [['tuning', 'tuning'], ['**held-out**', 'held-out'], ['**public (unseen)**', 'public']] as const;

/**
 * The reason each unconfirmed document is reported with, against its truth: a document whose printed
 * check digits fail (a specimen's dummy numbers, a misprint, an edit) should say
 * `mrz_check_digits_failed`, which is evidence about the document; `mrz_unreadable` says only that the
 * photo could not be read, and sends the applicant to retake it. A document whose check digits hold
 * should never be reported as failing them.
 */
export function reasonReport(rows: RealRow[]): string[] {
  const out = ['| set | printed check digits | documents | valid | mrz_check_digits_failed | mrz_unreadable | mrz_not_found | other |', '|---|---|---|---|---|---|---|---|'];
  for (const [label, set] of SET_LABELS) {
    const rs = rows.filter((r) => r.set === set);
    // A truth that does not record its check digits is counted apart, never as holding.
    for (const [holds, name] of [[false, 'fail'], [true, 'hold'], [undefined, 'not recorded']] as const) {
      const g = rs.filter((r) => r.checksValid === holds);
      if (!g.length) continue;
      const n = (reason: string | null) => g.filter((r) => !r.valid && r.reason === reason).length;
      const other = g.filter((r) => !r.valid && !['mrz_check_digits_failed', 'mrz_unreadable', 'mrz_not_found'].includes(r.reason ?? '')).length;
      out.push(`| ${label} | ${name} | ${g.length} | ${g.filter((r) => r.valid).length} | ${n('mrz_check_digits_failed')} | ${n('mrz_unreadable')} | ${n('mrz_not_found')} | ${other} |`);
    }
  }
  return out;
}

const STAGES: (keyof ScanStages)[] = ['locate', 'crop', 'tesseract', 'glyph', 'lines', 'mrz', 'rec'];


/**
 * Where the scan's wall time goes, per set: each stage's share of all the set's documents' time, and
 * of its slowest tenth's (the documents that make p95). `other`: interpretation, voting, decoding.
 */
export function stageReport(rows: RealRow[]): string[] {
  const out = ['| set | documents | ' + STAGES.join(' | ') + ' | other |', '|---|---|' + STAGES.map(() => '---|').join('') + '---|'];
  const line = (label: string, rs: RealRow[]) => {
    const timed = rs.filter((r) => r.stages);
    if (!timed.length) return;
    const total = timed.reduce((a, r) => a + r.ms, 0);
    const shares = STAGES.map((k) => timed.reduce((a, r) => a + r.stages![k], 0) / total);
    const other = 1 - shares.reduce((a, b) => a + b, 0);
    out.push(`| ${label} | ${timed.length} | ${[...shares, other].map((x) => `${(100 * x).toFixed(0)} %`).join(' | ')} |`);
  };
  for (const [label, set] of SET_LABELS) {
    const rs = rows.filter((r) => r.set === set);
    line(label, rs);
    const slow = [...rs].sort((a, b) => b.ms - a.ms).slice(0, Math.max(1, Math.ceil(rs.length / 10)));
    if (rs.length) line(`${label}, slowest tenth`, slow);
  }
  return ['Where the wall time goes (share of the documents\' summed wall time; the scan awaits one stage at a time):', '', ...out];
}

export function realReport(rows: RealRow[], dir: string, reference?: { ms: number; what: string }): string {
  const out: string[] = [];
  out.push(`# Real images: ${rows.length} specimen photos and scans (${dir})`, '');
  out.push('| set | images | MRZ found | lines exact | documents exact | valid | silent misreads (valid but wrong) | CPU p50 | CPU p95 | wall p50 | wall p95 |');
  out.push('|---|---|---|---|---|---|---|---|---|---|---|');
  const line = (label: string, rs: RealRow[]) => {
    if (!rs.length) return;
    const lt = rs.reduce((a, r) => a + r.linesTotal, 0), le = rs.reduce((a, r) => a + r.linesExact, 0);
    const cpu = rs.map((r) => r.cpuMs), wall = rs.map((r) => r.ms);
    out.push(`| ${label} | ${rs.length} | ${pct(rs.filter((r) => r.found).length, rs.length)} | ${pct(le, lt)} (${le}/${lt}) | ${withCi(rs.filter((r) => r.docExact).length, rs.length)} | ${pct(rs.filter((r) => r.valid).length, rs.length)} | ${rs.filter((r) => r.silent).length} | ${q(cpu, 0.5).toFixed(0)} ms | ${q(cpu, 0.95).toFixed(0)} ms | ${q(wall, 0.5).toFixed(0)} ms | ${q(wall, 0.95).toFixed(0)} ms |`);
  };
  line('tuning', rows.filter((r) => r.set === 'tuning'));
  line('**held-out**', rows.filter((r) => r.set === 'held-out'));
  line('**public (unseen)**', rows.filter((r) => r.set === 'public'));
  line('all', rows);
  for (const c of [...new Set(rows.map((r) => r.capture))]) line(`all, ${c}`, rows.filter((r) => r.capture === c));
  for (const f of [...new Set(rows.map((r) => r.format))]) line(`all, ${f}`, rows.filter((r) => r.format === f));
  out.push('', 'CPU is process CPU time over all threads (tesseract runs in worker threads): the load-independent cost. Wall time on the shared 2-core machine is noisier.', '');
  if (reference) {
    const times = (rs: RealRow[]) => (rs.length ? `${(q(rs.map((r) => r.cpuMs), 0.5) / reference.ms).toFixed(2)}× / ${(q(rs.map((r) => r.cpuMs), 0.95) / reference.ms).toFixed(2)}×` : 'n/a');
    out.push(`Machine reference: ${reference.what} takes ${reference.ms.toFixed(0)} ms of CPU on this machine (median of 5 after a warm-up). CPU p50 / p95 as multiples of it: held-out ${times(rows.filter((r) => r.set === 'held-out'))}, unseen ${times(rows.filter((r) => r.set === 'public'))}, all ${times(rows)}. The machines runs get differ by about two to one per core: compare runs on different machines by these multiples.`, '');
  }
  out.push(...stageReport(rows), '');
  out.push(...reasonReport(rows), '');
  out.push('| image | set | lines exact | valid | reason | attempts | CPU ms |', '|---|---|---|---|---|---|---|');
  for (const r of rows) out.push(`| ${r.file} | ${r.set} | ${r.linesExact}/${r.linesTotal} | ${r.valid ? 'yes' : 'no'} | ${r.reason ?? ''} | ${r.attempts} | ${r.cpuMs.toFixed(0)} |`);
  return out.join('\n');
}
