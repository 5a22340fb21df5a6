import sharp from 'sharp';
import type { TCheckName, TCheckOutcome } from '../../domain/checks.js';
import { compareExact, compareNames, parseDate, type FieldComparison } from './compare.js';
import { locateDocument, type Located } from './image/locate.js';
import { normalizeImage, type WorkingImage } from './image/normalize.js';
import { BLIND_TWINS, blindTwinsAgreed, blindTwinsOf, OTHER_FAMILIES, scanMrz, type MrzScan } from './mrz/scan.js';
import { usesRussianInternalNames } from './mrz/encode.js';
import { birthDateIso, expiryDateIso, type ParsedMrz } from './mrz/parse.js';
import type { GlyphReader } from './mrz/glyphs.js';
import type { MrzLineRecognizer } from './mrz/mrzrec.js';
import type { LineRecognizer } from './mrz/rec.js';
import { readMrz, type MrzRead } from './mrz/read.js';
import { DocumentEngineError, type ModelStamp, type OcrWorker } from './ocr/workers.js';
import type { TDocumentEngineSettings } from './settings.js';
import { templateFor } from './templates/catalogue.js';
import { isHard, plausibleMrz, templateRules, type RuleResult } from './templates/rules.js';
import type { DocumentTemplate, Side } from './templates/types.js';
import { readCaptions, readVisualZone, type VisualField } from './visual/read.js';

export type DocumentType = 'passport' | 'national_id' | 'driving_licence' | 'residence_permit';
export interface AnalyzeInput {
  front: Buffer;
  back?: Buffer;
  declared: { country: string; type: DocumentType };
  accepted: { country: string; types: string[] }[];
  applicant?: { given_names?: string; surnames?: string; date_of_birth?: string; document_number?: string };
  now: Date;
}
export interface Extracted {
  given_names?: string; surnames?: string; date_of_birth?: string; document_number?: string; expiry_date?: string;
  nationality?: string; sex?: string; issuing_state?: string; document_code?: string; [k: string]: unknown;
}
export interface AnalyzeResult {
  ocr: TCheckOutcome;
  template: TCheckOutcome;
  tier: 'calibrated' | 'uncalibrated' | 'unsupported';
  extracted: Extracted;
  portrait?: { x: number; y: number; width: number; height: number };
  normalized?: Buffer;
}

interface Signal { reason: string; hard: boolean }
const round3 = (x: number) => Math.round(x * 1000) / 1000;
interface Workers { mrz: OcrWorker; visual: OcrWorker; glyph: () => Promise<GlyphReader | undefined>; /** 2.9 (`scan.lineRec`): the learned line recogniser. */ rec?: () => Promise<LineRecognizer | undefined>; /** 3.0 (`scan.mrzRec`): the project's MRZ recogniser. */ mrzRec?: () => Promise<MrzLineRecognizer | undefined>; models: ModelStamp[]; language?: (lang: 'por' | 'spa') => OcrWorker | undefined }

/** failed beats review beats passed; an outcome with no signals passed. */
function outcome(check: TCheckName, settings: TDocumentEngineSettings, signals: Signal[], score: number | null, evidence: Record<string, unknown>, ms: number, models: ModelStamp[] = []): TCheckOutcome {
  const reasons = [...new Set(signals.map((s) => s.reason))];
  const status = signals.some((s) => s.hard) ? 'failed' : signals.length ? 'review' : 'passed';
  return { check, status, reasons, score, component: settings.version, models, evidence, duration_ms: ms };
}

function unavailable(check: TCheckName, settings: TDocumentEngineSettings, reasons: string[], evidence: Record<string, unknown>, ms: number, models: ModelStamp[] = []): TCheckOutcome {
  return { check, status: 'unavailable', reasons: [...new Set(reasons)], score: null, component: settings.version, models, evidence, duration_ms: ms };
}

/** INE writes sex in Spanish (H hombre, M mujer); everything we return uses ICAO letters. */
function icaoSex(sex: string | undefined, spanish: boolean): string | undefined {
  if (!sex) return undefined;
  if (spanish) return sex === 'H' ? 'M' : sex === 'M' ? 'F' : sex;
  return sex === '<' ? 'X' : sex;
}

function extractedFrom(mrz: ParsedMrz | null, visual: Record<string, VisualField>, t: DocumentTemplate, now: Date): Extracted {
  const v = (k: string) => visual[k]?.text || undefined;
  const out: Extracted = {};
  if (mrz) {
    Object.assign(out, {
      surnames: mrz.surnames, given_names: mrz.givenNames, date_of_birth: birthDateIso(mrz.birthDate, now),
      document_number: mrz.documentNumber, expiry_date: expiryDateIso(mrz.expiryDate), nationality: mrz.nationality,
      sex: icaoSex(mrz.sex, t.id === 'mex-ine'), issuing_state: mrz.issuingState, document_code: mrz.documentCode,
    });
  } else {
    Object.assign(out, {
      surnames: v('surnames'), given_names: v('given_names'), date_of_birth: parseDate(v('date_of_birth')),
      document_number: v('document_number'), expiry_date: parseDate(v('expiry_date')), sex: icaoSex(v('sex'), t.id === 'mex-ine'),
    });
  }
  for (const k of ['curp', 'clave_elector', 'seccion', 'vigencia'] as const) if (v(k)) out[k] = v(k)!.replace(/\s/g, k === 'vigencia' ? ' ' : '');
  if (t.id === 'mex-ine' && mrz) Object.assign(out, { cic: mrz.documentNumber, identificador: mrz.lines[0]!.slice(21, 30), emision: mrz.lines[1]!.slice(19, 21) });
  return out;
}

function compareVisualWithMrz(mrz: ParsedMrz, visual: Record<string, VisualField>, t: DocumentTemplate, s: TDocumentEngineSettings, now: Date): FieldComparison[] {
  const out: FieldComparison[] = [];
  const readable = (k: string) => (visual[k]?.trusted ? visual[k]!.text : undefined);
  const nameWidth = mrz.format === 'TD1' ? 30 : mrz.format === 'TD2' ? 31 : 39;
  const nameLine = mrz.format === 'TD1' ? mrz.lines[2]! : mrz.lines[0]!.slice(5);
  const truncated = nameLine.length >= nameWidth && !nameLine.endsWith('<');
  const opts = { truncatedB: truncated, match: s.thresholds.nameMatch, mismatch: s.thresholds.nameMismatch };
  out.push(compareNames('surnames', readable('surnames'), mrz.surnames, opts));
  out.push(compareNames('given_names', readable('given_names'), mrz.givenNames, opts));
  out.push(compareExact('date_of_birth', parseDate(readable('date_of_birth')), birthDateIso(mrz.birthDate, now)));
  out.push(compareExact('expiry_date', parseDate(readable('expiry_date')), expiryDateIso(mrz.expiryDate)));
  if (t.zones.some((z) => z.field === 'document_number')) out.push(compareExact('document_number', readable('document_number'), mrz.documentNumber, { confusable: true }));
  if (t.zones.some((z) => z.field === 'sex')) out.push(compareExact('sex', readable('sex'), mrz.sex));
  return out.filter((c) => c.verdict !== 'unverified' || t.zones.some((z) => z.field === c.field));
}

function compareApplicant(applicant: NonNullable<AnalyzeInput['applicant']>, ex: Extracted, visual: Record<string, VisualField>, s: TDocumentEngineSettings): FieldComparison[] {
  const out: FieldComparison[] = [];
  const opts = { match: s.thresholds.nameMatch, mismatch: s.thresholds.nameMismatch };
  // The visual zone keeps what the MRZ folds away (accents, Ñ); both are tried and the better wins.
  const best = (field: 'surnames' | 'given_names', value?: string) => {
    if (!value) return undefined;
    const cands = [compareNames(field, value, ex[field], { ...opts, bRussianInternal: usesRussianInternalNames(ex.document_code, ex.issuing_state) }), compareNames(field, value, visual[field]?.text, opts)];
    return cands.sort((a, b) => b.score - a.score)[0]!;
  };
  const sn = best('surnames', applicant.surnames); if (sn) out.push(sn);
  const gn = best('given_names', applicant.given_names); if (gn) out.push(gn);
  if (applicant.date_of_birth) out.push(compareExact('date_of_birth', parseDate(applicant.date_of_birth), ex.date_of_birth));
  if (applicant.document_number) out.push(compareExact('document_number', applicant.document_number, ex.document_number));
  return out;
}

async function sideImage(bytes: Buffer, t: DocumentTemplate, s: TDocumentEngineSettings): Promise<Located & { working: WorkingImage }> {
  const img = await normalizeImage(bytes, { ...s, acceptBmp: s.scan?.acceptBmp });
  return { ...(await locateDocument(img, { width: Math.round(t.sizeMm.width * s.pxPerMm), height: Math.round(t.sizeMm.height * s.pxPerMm) })), working: img };
}

/**
 * 3.10 (`scan.fallbackConfirm`): whether the template band's check-valid read may stand in for a scan
 * that refused. The 1.x cascade takes the first read that passes its check digits; the scan takes
 * none that another read does not print identically, and none while a second version also passes.
 * On the synthetic corpus the two differ exactly where the scan was right to refuse: a filler read
 * as `0` (both are worth 0 to every check digit) printed by two tesseract reads while five reads of
 * four reader families printed the filler, and a name line with a stray letter read once. The same
 * standard here: the read's lines are printed by at least two reads of the template band and the
 * scan together (with `blindTwins`, its check-blind characters printed alike by another family), and no scan
 * read of the same shape passing every check digit printed other lines.
 */
export function fallbackConfirmed(banded: MrzRead, scan: MrzScan, blindTwins = false, twins: ReadonlySet<string> = BLIND_TWINS, witnessChecks = false): boolean {
  const lines = banded.parsed?.lines;
  if (!banded.valid || !lines) return false;
  const key = lines.join('|');
  const sameShape = (ls: string[]) => ls.length === lines.length && ls.every((l, i) => l.length === lines[i]!.length);
  const printed = [...banded.attempts, ...scan.attempts].filter((a) => a.lines?.join('|') === key).length;
  // `scan.blindTwins`: its check-blind characters printed alike by a read of another family than tesseract's, as the scan asks.
  const others = [...banded.attempts.filter((a) => a.variant === 'glyph'), ...scan.attempts.filter((a) => OTHER_FAMILIES.has(a.source))].flatMap((a) => (a.lines ? [a.lines] : []));
  const contradicted = scan.attempts.some((a) => a.lines && sameShape(a.lines) && a.checks > 0 && a.checksOk === a.checks && a.lines.join('|') !== key);
  return printed >= 2 && (!blindTwins || blindTwinsAgreed({ format: banded.parsed!.format, lines, parsed: banded.parsed }, others, twins, witnessChecks)) && !contradicted;
}

/** 2.x: the MRZ found anywhere in the uploaded photo, in the shape the rest of the analysis expects. */
async function scannedMrz(img: WorkingImage, t: DocumentTemplate, s: TDocumentEngineSettings, mrz: OcrWorker, glyph?: GlyphReader, rec?: LineRecognizer, mrzRec?: MrzLineRecognizer): Promise<{ read: MrzRead; scan: MrzScan }> {
  // 2.2 (`glyphVote`): the OCR-B glyph reader confirms and votes with tesseract's reads.
  const scan = await scanMrz(img, { tesseract: mrz, glyph: s.scan!.glyphVote ? glyph : undefined, rec: s.scan!.lineRec ? rec : undefined, mrz: s.scan!.mrzRec ? mrzRec : undefined }, { ...s.scan!, timeoutMs: s.ocr.mrzTimeoutMs, plausible: (p) => plausibleMrz(t, p) });
  const read: MrzRead = {
    parsed: scan.parsed, valid: scan.valid,
    // Unconfirmed reads are never trusted; a misprinted check digit confirmed by two reads is evidence.
    stable: scan.nameConfirmed, confidence: scan.confidence, reader: scan.parsed ? 'tesseract' : 'none', nameCrossChecked: scan.nameConfirmed,
    attempts: scan.attempts.map((a) => ({ variant: `${a.source}#${a.band}${a.flipped ? ':180' : ''}`, lines: a.lines, valid: a.checks > 0 && a.checksOk === a.checks, confidence: 0, ms: a.ms })),
  };
  return { read, scan };
}

export async function analyzeDocument(input: AnalyzeInput, s: TDocumentEngineSettings, workers: Workers): Promise<AnalyzeResult> {
  const t0 = Date.now();
  const ms = () => Date.now() - t0;
  const { country, type } = input.declared;
  const accepted = input.accepted.some((a) => a.country === country && a.types.includes(type));
  const template = templateFor(country, type);
  const acceptance: Signal[] = accepted ? [] : [{ reason: 'document_not_accepted', hard: true }];

  if (!template) {
    const ev = { declared: input.declared, accepted };
    return {
      tier: 'unsupported', extracted: {},
      ocr: unavailable('document_ocr', s, ['document_type_unsupported'], ev, ms()),
      template: accepted
        ? unavailable('template_match', s, ['document_type_unsupported'], ev, ms())
        : outcome('template_match', s, acceptance, 0, ev, ms()),
    };
  }
  const expectedState = template.country === '*' ? country : template.country;
  const tierSignals: Signal[] = template.tier === 'uncalibrated' ? [{ reason: 'uncalibrated_document_scope', hard: false }] : [];

  let sides: Partial<Record<Side, Located & { working: WorkingImage }>>;
  try {
    sides = { front: await sideImage(input.front, template, s) };
    if (input.back) sides.back = await sideImage(input.back, template, s);
  } catch (err) {
    if (!(err instanceof DocumentEngineError)) throw err;
    const ev = { error: err.code, declared: input.declared };
    return {
      tier: template.tier, extracted: {},
      ocr: unavailable('document_ocr', s, [err.code], ev, ms()),
      template: accepted ? unavailable('template_match', s, [err.code], ev, ms()) : outcome('template_match', s, acceptance, 0, ev, ms()),
    };
  }

  // A one-sided upload of a card may be its back: then that is where the MRZ is.
  const mrzSide = sides[template.mrz.side] ?? sides.front!;
  const front = sides.front!;
  let mrzRead: MrzRead;
  let visual: Record<string, VisualField>;
  let scan: (MrzScan & { fallback?: string }) | undefined;
  const templateRead = async () => readMrz(mrzSide.image, template.mrz.band, template.mrz.format, { tesseract: workers.mrz, glyph: await workers.glyph() }, {
    timeoutMs: s.ocr.mrzTimeoutMs, maxAttempts: s.ocr.maxMrzAttempts, plausible: (p) => plausibleMrz(template, p),
    pitchPx: 2.54 * s.pxPerMm, glyphNameMargin: s.thresholds.glyphNameMargin, minConfidence: s.thresholds.mrzMinConfidence,
    // A LOW-confidence number shape could turn a genuine digit into a letter and break its check digit.
    numberShape: ['HIGH', 'MED'].includes(template.documentNumber.confidence) ? template.documentNumber.shape : undefined,
    noInvert: s.scan?.noInvert,
  });
  // 2.x: the captions, read in the document's language (evidence that each value sits under its
  // caption). Their own tesseract worker and only the front image: read beside the MRZ and the
  // visual zone rather than after them (the document check is a Case's critical path).
  const lang = template.languages.find((l): l is 'por' | 'spa' => l === 'por' || l === 'spa');
  const captionWorker = s.visualZone?.captions && lang ? workers.language?.(lang) : undefined;
  const captionsRead = captionWorker ? readCaptions(front.image, 'front', template.zones, captionWorker, s.ocr.visualTimeoutMs).catch((err) => {
    if (err instanceof DocumentEngineError) return undefined;
    throw err;
  }) : Promise.resolve(undefined);
  // Awaited below; an early return (the MRZ or visual read failed) must not leave it unhandled.
  captionsRead.catch(() => undefined);
  try {
    const reads = [
      s.scan ? scannedMrz(mrzSide.working, template, s, workers.mrz, s.scan.glyphVote ? await workers.glyph() : undefined, s.scan.lineRec ? await workers.rec?.() : undefined, s.scan.mrzRec ? await workers.mrzRec?.() : undefined).then(async (r) => {
        scan = r.scan;
        if (r.read.valid) return r.read;
        // Not found or not confirmed anywhere in the frame: the 1.x reader on the template's band of
        // the found document (it reads the synthetic corpus at 100 %); whichever is valid wins.
        const banded = await templateRead();
        // 2.1: neither is valid, but the template reader's cascade agreed on its lines (a stable
        // read: a misprinted or forged check digit) while the scan's did not: the stable read is
        // the evidence, so the broken check digit is reported, not an unreadable document.
        if (!banded.valid && s.scan?.retry && !r.read.stable && banded.stable && banded.parsed) {
          scan = { ...r.scan, reason: 'mrz_check_digits_failed', fallback: 'template_band' };
          return banded;
        }
        if (!banded.valid) return r.read;
        // 3.10 (`fallbackConfirm`): the scan refused; its refusal stands unless the template band's
        // read meets the scan's own standard (two reads print it, no check-valid read prints other lines).
        if (s.scan?.fallbackConfirm && !fallbackConfirmed(banded, r.scan, !!s.scan.blindTwins, blindTwinsOf(s.scan), !!s.scan.witnessChecks)) return r.read;
        scan = { ...r.scan, reason: undefined, fallback: 'template_band' };
        return banded;
      }) : templateRead(),
      readVisualZone(front.image, 'front', template.zones, workers.visual, s.ocr.visualTimeoutMs, template.documentNumber),
    ] as const;
    // When one read fails, Promise.all answers at once and the other read runs on alone: its own
    // later failure (a timeout, or the engine closed under it) must not surface as an unhandled
    // rejection, which ends a Node process.
    for (const r of reads) r.catch(() => undefined);
    [mrzRead, visual] = await Promise.all(reads);
  } catch (err) {
    if (!(err instanceof DocumentEngineError)) throw err;
    const ev = { error: err.code };
    return {
      tier: template.tier, extracted: {},
      ocr: unavailable('document_ocr', s, [err.code], ev, ms()),
      template: unavailable('template_match', s, [err.code, ...acceptance.map((a) => a.reason)], ev, ms()),
    };
  }

  const captions = await captionsRead;

  const mrz = mrzRead.parsed;
  const extracted = extractedFrom(mrz, visual, template, input.now);
  const ocrSignals: Signal[] = [...tierSignals];
  const tplSignals: Signal[] = [...acceptance, ...tierSignals];
  const trustedRead = !!mrz && (mrzRead.valid || mrzRead.stable);

  let visualComparisons: FieldComparison[] = [];
  if (!trustedRead) {
    ocrSignals.push({ reason: 'document_unreadable', hard: false });
    if (scan?.reason) ocrSignals.push({ reason: scan.reason, hard: false });
  } else {
    if (scan?.reason === 'mrz_check_digits_failed') ocrSignals.push({ reason: scan.reason, hard: false });
    if (!mrz!.checkDigitsValid) tplSignals.push({ reason: 'mrz_check_digit_mismatch', hard: true });
    if (mrz!.structureErrors.length) tplSignals.push({ reason: 'mrz_structure_invalid', hard: true });
    if (mrzRead.nameConflict) ocrSignals.push({ reason: 'mrz_name_uncertain', hard: false });
    if (mrzRead.lowConfidence) ocrSignals.push({ reason: 'mrz_low_confidence', hard: false });
    visualComparisons = compareVisualWithMrz(mrz!, visual, template, s, input.now);
    // Names as printed keep accents and escape MRZ truncation: take them when they agree with the MRZ.
    for (const c of visualComparisons) {
      const same = c.score === 1 || c.note === 'mrz_truncated';
      if ((c.field === 'surnames' || c.field === 'given_names') && c.verdict === 'match' && same && c.a) extracted[c.field] = c.a;
    }
    // An MRZ with nothing printed to compare it with leaves the visual zone unchecked: a human should look.
    const checked = visualComparisons.filter((c) => c.verdict !== 'unverified').length;
    if (visualComparisons.length && checked < visualComparisons.length / 2) ocrSignals.push({ reason: 'visual_zone_unverified', hard: false });
    for (const c of visualComparisons) {
      // Against a low-confidence MRZ read the disagreement may be the MRZ's own misread: review, not fail.
      if (c.verdict === 'mismatch') ocrSignals.push({ reason: 'visual_mrz_mismatch', hard: !mrzRead.lowConfidence });
      else if (c.verdict === 'partial') ocrSignals.push({ reason: 'visual_mrz_partial_match', hard: false });
    }
  }
  const applicantComparisons = input.applicant ? compareApplicant(input.applicant, extracted, visual, s) : [];
  for (const c of applicantComparisons) {
    if (c.verdict === 'mismatch') ocrSignals.push({ reason: 'applicant_data_mismatch', hard: true });
    else if (c.verdict === 'partial') ocrSignals.push({ reason: 'applicant_data_partial_match', hard: false });
    else if (c.verdict === 'unverified') ocrSignals.push({ reason: 'applicant_data_unverified', hard: false });
  }

  const vis = Object.fromEntries(Object.entries(visual).map(([k, v]) => [k, v.trusted ? v.text : undefined]));
  const rules: RuleResult[] = trustedRead ? templateRules(template, mrz, vis, expectedState, input.now, { curpDateCheck: !!s.visualZone?.curpDateCheck }) : [];
  for (const r of rules.filter((rr) => !rr.ok)) tplSignals.push({ reason: r.reason, hard: isHard(r) });
  const aspect = front.quad ? front.aspect : null;
  const expectedAspect = template.sizeMm.width / template.sizeMm.height;
  if (aspect && Math.abs(aspect - expectedAspect) / expectedAspect > s.thresholds.aspectTolerance) tplSignals.push({ reason: 'aspect_ratio_mismatch', hard: false });

  const mismatches = visualComparisons.filter((c) => c.verdict === 'mismatch').length;
  const verified = visualComparisons.filter((c) => c.verdict === 'match').length;
  const ocrScore = trustedRead
    ? round3(Math.max(0, Math.min(1, mrzRead.confidence * (mrzRead.valid ? 1 : 0.6) * (visualComparisons.length ? (0.7 + 0.3 * verified / visualComparisons.length) : 0.85) * (mismatches ? 0.5 : 1))))
    : 0;
  const evidence = {
    declared: input.declared, accepted, template: template.id, tier: template.tier,
    mrz: mrz ? { format: mrz.format, lines: mrz.lines, checks: mrz.checks, valid: mrzRead.valid, stable: mrzRead.stable, confidence: mrzRead.confidence, reader: mrzRead.reader, name_cross_checked: mrzRead.nameCrossChecked } : null,
    mrz_attempts: mrzRead.attempts,
    ...(scan ? { mrz_scan: { reason: scan.reason ?? null, fallback: scan.fallback ?? null, line_confidence: scan.lineConfidence, name_confirmed: scan.nameConfirmed, corrections: scan.corrections, band: scan.band ?? null, bands_found: scan.bandsFound, kind: scan.parsed?.kind ?? null } } : {}),
    visual, visual_vs_mrz: visualComparisons,
    ...(captions ? { captions, captions_matched: Object.values(captions).filter((c) => c.matched).length, captions_total: Object.keys(captions).length } : {}), applicant_vs_document: applicantComparisons,
    located: { front: front.quad, aspect, expected_aspect: expectedAspect, back: sides.back?.quad ?? null },
  };

  const templateOutcome = trustedRead || !accepted
    ? outcome('template_match', s, tplSignals, rules.length ? round3(rules.filter((r) => r.ok).length / rules.length) : 0, { ...evidence, rules }, ms(), workers.models)
    : unavailable('template_match', s, ['document_unreadable', ...tierSignals.map((x) => x.reason)], evidence, ms(), workers.models);
  const ocrOutcome = trustedRead
    ? outcome('document_ocr', s, ocrSignals, ocrScore, evidence, ms(), workers.models)
    : unavailable('document_ocr', s, ocrSignals.map((x) => x.reason), evidence, ms(), workers.models);

  const normalized = await sharp(front.image.data, { raw: { width: front.image.width, height: front.image.height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
  const p = template.portrait?.side === 'front' ? template.portrait.box : undefined;
  const portrait = p ? { x: Math.round(p.x * front.image.width), y: Math.round(p.y * front.image.height), width: Math.round(p.w * front.image.width), height: Math.round(p.h * front.image.height) } : undefined;
  return { ocr: ocrOutcome, template: templateOutcome, tier: template.tier, extracted, portrait, normalized };
}
