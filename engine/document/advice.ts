import sharp from 'sharp';
import type { TCaptureIssue } from '../../domain/capture-advice.js';
import { normalizeImage, type WorkingImage } from './image/normalize.js';
import { fineWorkSide, locateMrzBands, sameBand, type MrzBand } from './mrz/locate.js';
import type { NationalFormats } from './mrz/repair.js';
import { bandCropper, interpret, splitTextLines, type UpscaleOptions } from './mrz/scan.js';
import { mrzReadParams, type OcrLine, type OcrWorker } from './ocr/workers.js';

/**
 * Capture-time advice (issue 12 item 5): a look at one document photo within the upload request,
 * so the applicant can retake before submitting. Blur (Laplacian variance), the MRZ band (the same
 * classical band search as the full scan), ONE tesseract read of the best band (two if the first
 * reads upside down) to tell a readable MRZ from an unreadable one, and whether the MRZ text runs
 * into the photo's edge (the document is cut off).
 *
 * Its settings are versioned on their own (`version`), not in an engine profile: advice is never
 * evidence and is not stamped on the Case, whose checks still run in full after submit.
 */
export interface CaptureAdviceSettings {
  version: string;
  maxInputPixels: number;
  maxInputBytes: number;
  /** Longest side the photo is decoded to (the band search works at `workSide`). */
  workingMaxSide: number;
  workSide: number;
  /** Laplacian-variance floor on a 1000 px grey copy (document-engine 2.0's `quality.minSharpness`). */
  minSharpness: number;
  /** Bands the band search keeps; only the best one is read. */
  maxBands: number;
  lineHeightPx: number;
  /** Upper bound for one tesseract read; a read that takes longer judges nothing. */
  readTimeoutMs: number;
  /**
   * An unreadable MRZ whose band reaches closer than this many line heights to the photo's edge
   * (beyond the band search's own 1.2-line-height padding) is reported as cut off.
   */
  edgeLineHeights: number;
  /**
   * 1.1: the 180° read cuts the band and then turns it. 1.0 turned the whole photo first (sharp
   * applies a rotation before an extract in one pipeline) and so read the mirrored region: an
   * upside-down MRZ was called unreadable (document-engine 2.2 `scan.exactFlip`, the same bug).
   */
  exactFlip?: boolean;
  /**
   * 1.2: when the best band does not read, or no band is found at the text's angle, one more band
   * search across the dominant text (turned a quarter) and a read of its best band: document engine
   * 3.7's `scan.acrossText`. A passport's upper page printed sideways, photographed a quarter turn
   * off, has its dominant text along the frame and its MRZ across it; 1.1 told such a photo its MRZ
   * was unreadable or missing while the Case's scan read it.
   */
  acrossText?: boolean;
  /**
   * 1.2: the band search of the full scan it advises for (document engine 3.7's `scan` options of the
   * same names; 3.7 strips no overlay lines, so neither does the advice). 1.0 and 1.1 searched as document engine 2.0 did, without the joins and pairings later
   * engines added, and so told photos the Case's scan reads that their MRZ was not there (public tuning:
   * a tight crop of a card's MRZ in large print, a passport whose name line breaks at its fillers).
   * Where no band is found at all, the full scan's later searches follow, each only if the one before
   * found nothing: the straight and quarter-turned frames (`quarterTurns`), then faint print
   * (`faintSearch`, the text mask's level as a fraction of Otsu's).
   */
  /**
   * 1.2: bands after the best one read (upright, once each) while no read has had an MRZ's shape, unless
   * the best band reaches the photo's edge (a cut-off MRZ). 1.1 read the best band only and called the
   * MRZ unreadable when that band was other text.
   */
  moreBands?: number;
  /**
   * 1.2: the band cut as the full scan cuts it for its first read, small print enlarged (`upscale`), and
   * a read that shows fillers but no MRZ read again line by line (`splitLines`, document engine 2.8).
   */
  crop?: { upscale?: UpscaleOptions; splitLines?: boolean };
  bandSearch?: { tilt?: boolean; adaptiveJoin?: boolean; extendFirst?: boolean; faintSearch?: number; quarterTurns?: boolean };
  /**
   * 1.3: no inverted second pass over unsure lines in its tesseract reads (document engine 3.14's
   * `scan.noInvert`). A band of captions or security print is all unsure lines, and its read, twice
   * as long with the pass, could outrun `readTimeoutMs` and judge nothing.
   */
  noInvert?: boolean;
  /**
   * 1.4: while no read has had an MRZ's shape, the band search once more on a working copy this many
   * times the size (frames larger than that only), its best stack read (document engine 3.21's
   * `scan.fineSearch`). A page photographed whole on a table has MRZ strokes too thin at the working
   * size to form lines: 1.3 told 8 of 10 such synthetic Mozambican passports that their MRZ was
   * unreadable, which the Case's scan reads since 3.21.
   */
  fineSearch?: number;
  /**
   * 1.5: the national layouts the full scan types reads by (document engine 3.24's `scan.frenchId`):
   * 1.4 typed the French national identity card as TD2, so its names became digits, one check digit
   * of three passed, and a clean photo of the card was told its MRZ was unreadable.
   */
  national?: NationalFormats;
}

/**
 * capture-advice 1.0. `minSharpness` 30 and the band search are document-engine 2.0's values (set
 * on the real tuning images, see engine/document/settings.ts). `edgeLineHeights` 0.1 only asks
 * whether the padded band touches the edge: no fitted threshold. Touching alone is not advice: tight
 * crops of a data page (real stock photos) reach the edge and read fine, so only an MRZ that also
 * cannot be read there is called cut off.
 */
export const CAPTURE_ADVICE_V1: CaptureAdviceSettings = {
  version: 'capture-advice@1.0.0',
  maxInputPixels: 40_000_000,
  maxInputBytes: 25 * 1024 * 1024,
  workingMaxSide: 2400,
  workSide: 1000,
  minSharpness: 30,
  maxBands: 3,
  lineHeightPx: 30,
  readTimeoutMs: 1500,
  edgeLineHeights: 0.1,
};

/** capture-advice 1.1: 1.0 with the 180° read of the band itself; nothing else changed. */
export const CAPTURE_ADVICE_V1_1: CaptureAdviceSettings = { ...CAPTURE_ADVICE_V1, version: 'capture-advice@1.1.0', exactFlip: true };

/**
 * capture-advice 1.2: 1.1 with document engine 3.7's band search (`bandSearch`: its tilt
 * passes, adaptive join, overlay-line stripping and filler-grown pairing) and its search across the text
 * (`acrossText`). Still one read of the best band (two if upside down), and one of the band across.
 */
export const CAPTURE_ADVICE_V1_2: CaptureAdviceSettings = {
  ...CAPTURE_ADVICE_V1_1,
  version: 'capture-advice@1.2.0',
  acrossText: true,
  moreBands: 2,
  crop: { upscale: { belowPx: 14, lineHeightPx: 36, preBlur: 0.5 }, splitLines: true },
  bandSearch: { tilt: true, adaptiveJoin: true, extendFirst: true, quarterTurns: true, faintSearch: 0.5 },
};

/**
 * capture-advice 1.3: 1.2 whose reads skip tesseract's inverted second pass (document engine
 * 3.14's `scan.noInvert`). The same advice on every real photo measured, upright and turned; on tuning
 * photos turned −20° no photo passes the api's deadline any more (real 3 → 0, public 1 → 0).
 */
export const CAPTURE_ADVICE_V1_3: CaptureAdviceSettings = { ...CAPTURE_ADVICE_V1_2, version: 'capture-advice@1.3.0', noInvert: true };

/**
 * capture-advice 1.4: 1.3 with document engine 3.21's second band search on a working copy 1.4
 * times the size, while no read has had an MRZ's shape, in frames larger than that (`fineSearch`).
 */
export const CAPTURE_ADVICE_V1_4: CaptureAdviceSettings = { ...CAPTURE_ADVICE_V1_3, version: 'capture-advice@1.4.0', fineSearch: 1.4 };

/**
 * capture-advice 1.5 (current): 1.4 typing reads by the French national identity card's own fields
 * where two lines of 36 begin `IDFRA` (document engine 3.24's `scan.frenchId`).
 */
export const CAPTURE_ADVICE_V1_5: CaptureAdviceSettings = { ...CAPTURE_ADVICE_V1_4, version: 'capture-advice@1.5.0', national: { frenchId: true } };

/** The settings the api runs. */
export const CAPTURE_ADVICE = CAPTURE_ADVICE_V1_5;

/** By short name, for the bench's `--settings`. */
export const CAPTURE_ADVICE_BY_NAME: Readonly<Record<string, CaptureAdviceSettings>> = { '1.0': CAPTURE_ADVICE_V1, '1.1': CAPTURE_ADVICE_V1_1, '1.2': CAPTURE_ADVICE_V1_2, '1.3': CAPTURE_ADVICE_V1_3, '1.4': CAPTURE_ADVICE_V1_4, '1.5': CAPTURE_ADVICE_V1_5 };

export interface CaptureAdviceResult {
  issues: TCaptureIssue[];
  /** `unreadable_image`: the bytes did not decode (the upload's own validation answers that first). */
  failed?: 'unreadable_image';
  metrics: {
    sharpness: number;
    mrzBands: number | null;
    /** Check digits right / checks in the best read (null: no read). */
    mrzChecks: [number, number] | null;
    mrzReads: number;
    /** A read ran past `readTimeoutMs`: the MRZ was not judged. */
    mrzReadTimedOut: boolean;
    /** Shortest distance (line heights) from the padded MRZ band's ends to the photo's edge. */
    mrzEdgeGap: number | null;
  };
  /** Wall time per stage, ms. */
  timings: { decode: number; sharpness: number; locate: number; read: number };
}

/** Variance of a 3×3 Laplacian on a 1000 px grey copy: low for a blurred or shaken photo. */
export async function sharpnessOf(img: WorkingImage): Promise<number> {
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).greyscale().resize(1000, 1000, { fit: 'inside' }).raw().toBuffer({ resolveWithObject: true });
  const w = info.width, h = info.height;
  let sum = 0, sum2 = 0, n = 0;
  for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) {
    const i = y * w + x;
    const lap = 4 * data[i]! - data[i - 1]! - data[i + 1]! - data[i - w]! - data[i + w]!;
    sum += lap; sum2 += lap * lap; n++;
  }
  return n ? sum2 / n - (sum / n) ** 2 : 0;
}

/**
 * Distance, in line heights, from the ends of the band to the edge of the photo. The band search
 * pads the text by 1.2 line heights sideways and clamps the box to the canvas, so 0 means the MRZ
 * text runs to within 1.2 line heights of the edge (or past it). The band is in the coordinates of
 * the image turned clockwise by `angle` (sharp enlarges the canvas to fit); its ends are turned
 * back into the photo's own coordinates.
 */
export function edgeGap(b: MrzBand, w: number, h: number): number {
  const th = (b.angle * Math.PI) / 180, c = Math.cos(th), s = Math.sin(th);
  const tw = Math.round(w * Math.abs(c) + h * Math.abs(s)), tth = Math.round(w * Math.abs(s) + h * Math.abs(c));
  const yc = b.top + b.height / 2;
  let gap = Infinity;
  for (const xt of [b.left, b.left + b.width]) {
    const dx = xt - tw / 2, dy = yc - tth / 2;
    // Inverse of a clockwise turn (y down): back into the photo's frame.
    const x = dx * c + dy * s + w / 2, y = -dx * s + dy * c + h / 2;
    gap = Math.min(gap, x, w - x, y, h - y);
  }
  return Math.max(0, gap) / b.lineHeight;
}

export async function adviseCapture(bytes: Buffer, expectMrz: boolean, tesseract: OcrWorker, s: CaptureAdviceSettings = CAPTURE_ADVICE): Promise<CaptureAdviceResult> {
  const timings = { decode: 0, sharpness: 0, locate: 0, read: 0 };
  const metrics: CaptureAdviceResult['metrics'] = { sharpness: 0, mrzBands: null, mrzChecks: null, mrzReads: 0, mrzReadTimedOut: false, mrzEdgeGap: null };
  const readParams = mrzReadParams(s);
  let t = performance.now();
  const lap = () => { const now = performance.now(), d = now - t; t = now; return Math.round(d); };
  let img: WorkingImage;
  try {
    img = await normalizeImage(bytes, { ...s, acceptBmp: true });
  } catch {
    return { issues: [], failed: 'unreadable_image', metrics, timings };
  }
  timings.decode = lap();
  const issues: TCaptureIssue[] = [];
  metrics.sharpness = Math.round(await sharpnessOf(img));
  if (metrics.sharpness < s.minSharpness) issues.push('blurry');
  timings.sharpness = lap();
  if (!expectMrz) return { issues, metrics, timings };

  const textTurn: { across?: number } = {};
  const { faintSearch, quarterTurns, ...joins } = s.bandSearch ?? {};
  const search = { workSide: s.workSide, ...joins };
  const bands = (await locateMrzBands(img, { ...search, maxBands: s.maxBands, ...(s.acrossText ? { report: textTurn } : {}) })).filter((b) => b.lines >= 2);
  metrics.mrzBands = bands.length;
  timings.locate += lap();

  // One read upright; a second, turned 180°, only when the first makes no sense (scan.ts's rule:
  // a read with half its check digits right was the right way up).
  const crop = bandCropper(img, s.lineHeightPx, false, false, !!s.exactFlip, s.crop?.upscale);
  let timedOut = false;
  /** Whether any read so far had an MRZ's shape (a format, right or wrong): then the MRZ was found. */
  let shaped = false;
  const readable = async (band: MrzBand, turns: boolean[] = [false, true]): Promise<boolean> => {
    for (const flipped of turns) {
      let r;
      try {
        const png = await crop(band, flipped, 'grey');
        const raw = (await tesseract.recognize(png, readParams, s.readTimeoutMs)).lines;
        metrics.mrzReads++;
        r = interpret(raw, undefined, false, s.national);
        // As the full scan's first read (2.8 `splitLines`): fillers read but no MRZ made of the lines.
        const parts = !r && s.crop?.splitLines && raw.some((l) => /<</.test(l.text) && l.text.replace(/[^A-Za-z0-9<]/g, '').length >= 24) ? await splitTextLines(png) : null;
        if (parts) {
          const lines: OcrLine[] = [];
          for (const part of parts) {
            const got = (await tesseract.recognize(part, readParams, s.readTimeoutMs)).lines;
            const longest = got.reduce<OcrLine | null>((m, l) => (!m || l.text.length > m.text.length ? l : m), null);
            if (longest) lines.push(longest);
          }
          metrics.mrzReads++;
          r = interpret(lines, undefined, false, s.national) ?? r;
        }
      } catch {
        timedOut = true;
        return false;
      }
      const checks = r?.parsed?.checks.length ?? 0;
      const ok = r?.checksOk ?? 0;
      if (r?.parsed) shaped = true;
      if (r?.parsed && (!metrics.mrzChecks || ok > metrics.mrzChecks[0])) metrics.mrzChecks = [ok, checks];
      if (r?.parsed && ok >= checks / 2) return true;
    }
    return false;
  };
  // The band the advice is about: the best one found (cut-off is judged on it).
  let judged: MrzBand | undefined = bands[0];
  let read = judged ? await readable(judged) : false;
  timings.read += lap();
  // 1.2: nothing readable at the text's angle; one search across the text, unless a band already runs that way.
  const across = textTurn.across;
  if (s.acrossText && !read && !timedOut && across !== undefined && !bands.some((b) => Math.abs(b.angle - across) < 0.75)) {
    const found = (await locateMrzBands(img, { ...search, maxBands: 1, angles: [across], tilt: false })).find((b) => b.lines >= 2 && !b.fallback);
    timings.locate += lap();
    if (found) {
      metrics.mrzBands++;
      read = await readable(found);
      timings.read += lap();
      if (read || !judged) judged = found;
    }
  }
  // 1.2: no read so far had an MRZ's shape, so the bands read were other text (a card's name block
  // ranks above its MRZ): the next bands found, read the right way up only (the first band's two reads
  // left the turn open, and the upright photo is the common one), at most `moreBands` of them.
  // Not when the best band reaches the photo's edge: an unreadable band there is what a cut-off MRZ looks
  // like, and the reads of other text would spend the time in which the applicant should be told.
  const atEdge = !!bands[0] && edgeGap(bands[0], img.width, img.height) < s.edgeLineHeights;
  for (const next of atEdge ? [] : bands.slice(1, 1 + (s.moreBands ?? 0))) {
    if (read || shaped || timedOut) break;
    read = await readable(next, [false]);
    timings.read += lap();
    if (read) judged = next;
  }
  // 1.2: no band anywhere yet: the full scan's later searches, in its order, until one finds a band.
  const searched = new Set([...bands.map((b) => b.angle), ...(across !== undefined && s.acrossText ? [across] : [])]);
  const later = [
    ...(quarterTurns ? [{ angles: [0, 90, -90].filter((a) => !searched.has(a)), skipAngles: [...searched] }] : []),
    ...(faintSearch ? [{ faint: faintSearch }] : []),
  ];
  for (const extra of later) {
    if (judged || timedOut) break;
    const found = (await locateMrzBands(img, { ...search, maxBands: 1, ...extra })).find((b) => b.lines >= 2);
    timings.locate += lap();
    if (!found) continue;
    metrics.mrzBands = (metrics.mrzBands ?? 0) + 1;
    judged = found;
    read = await readable(found);
    timings.read += lap();
  }
  // 1.4: nothing read had an MRZ's shape: the full scan's second search on a larger copy (3.21), in frames larger
  // than it. Last, as in the full scan where no band was found: the quarter turns come first (a sideways photo's
  // MRZ is found there; searched first, the larger copy's best stack at the text's angle was other text).
  const fineSide = s.fineSearch ? fineWorkSide(img, s.workSide, s.fineSearch) : null;
  if (fineSide !== null && !read && !shaped && !timedOut) {
    const found = (await locateMrzBands(img, { ...search, maxBands: s.maxBands, workSide: fineSide })).find((b) => b.lines >= 2 && !b.fallback && !bands.some((k) => sameBand(k, b)));
    timings.locate += lap();
    if (found) {
      metrics.mrzBands = (metrics.mrzBands ?? 0) + 1;
      read = await readable(found);
      timings.read += lap();
      if (read || !judged) judged = found;
    }
  }
  metrics.mrzReadTimedOut = timedOut;
  if (!judged) {
    issues.push('mrz_not_found');
    return { issues, metrics, timings };
  }
  metrics.mrzEdgeGap = Math.round(edgeGap(judged, img.width, img.height) * 100) / 100;
  const cutOff = metrics.mrzEdgeGap < s.edgeLineHeights;
  // A read that ran out of time judges nothing: no advice is better than a wrong one.
  if (!read && !timedOut) issues.push(cutOff ? 'document_cut_off' : 'mrz_unreadable');
  return { issues, metrics, timings };
}
