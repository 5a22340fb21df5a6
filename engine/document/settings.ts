import { z } from 'zod';

/**
 * Everything that changes an answer of the document engine. The platform stamps a parsed copy
 * into an immutable engine profile, so a change here is a new `version`.
 */
export const ZDocumentEngineSettings = z.object({
  version: z.string(),
  /** sharp `limitInputPixels`: rejects decompression bombs before decoding. */
  maxInputPixels: z.number().int().positive(),
  maxInputBytes: z.number().int().positive(),
  /** Longest side after normalisation; phone photos are downscaled to it. */
  workingMaxSide: z.number().int().positive(),
  /** Rectified document width in pixels per millimetre. */
  pxPerMm: z.number().positive(),
  ocr: z.object({
    /** Try the fixed-pitch OCR-B glyph reader before tesseract. */
    glyphReader: z.boolean(),
    mrzTimeoutMs: z.number().int().positive(),
    visualTimeoutMs: z.number().int().positive(),
    /** Extra preprocessing variants tried when check digits fail (cascade depth). */
    maxMrzAttempts: z.number().int().min(1).max(8),
  }),
  tessdata: z.object({ mrzSha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  thresholds: z.object({
    /** Name similarity (0..1) at or above which two names are the same person. */
    nameMatch: z.number().min(0).max(1),
    /** Below this, a name difference is a mismatch; between the two it is a soft signal. */
    nameMismatch: z.number().min(0).max(1),
    /**
     * Smallest correlation margin between the best and second-best glyph on the MRZ name line for
     * the glyph reader's read to stand without tesseract (names have no check digit).
     */
    glyphNameMargin: z.number().min(0).max(1),
    /** Tesseract line confidence under which a check-digit-valid MRZ read is only a fallback (and flagged). */
    mrzMinConfidence: z.number().min(0).max(1),
    /** Aspect ratio tolerance when checking the document against its template. */
    aspectTolerance: z.number().positive(),
  }),
  /**
   * 2.x: find the MRZ anywhere in the photo (classical text-band localisation, any rotation)
   * instead of cropping the template's band from a found document outline. Absent in 1.x.
   */
  scan: z.object({
    /** Longest side of the grey copy the band search runs on. */
    workSide: z.number().int().positive(),
    /** Candidate bands read (each upright, then turned 180° if the read makes no sense). */
    maxBands: z.number().int().min(1).max(12),
    /** MRZ line height in pixels the band is scaled to for tesseract. */
    lineHeightPx: z.number().positive(),
    /** Most tesseract reads per image (caps the cost of images with no readable MRZ). */
    maxReads: z.number().int().min(2).max(40),
    /** Decode BMP uploads too (some scanners and vendor SDK samples write them). */
    acceptBmp: z.boolean(),
    /**
     * 2.1 (absent in 2.0). `variants`: when a band's first read has the right shape but is not
     * valid, it is read again as 'binary', 'small' and these: 'flat' (background divided by the
     * local mean: shading, tinted print), 'thin' (2×2 grey max: bold or blurred strokes), 'tall'
     * (lines 1.4× higher). `vote`: combine the band's reads per character (covered characters
     * only; uncovered ones whole, from two identical reads). `primary`: the first read's crop.
     * `flatWhenEmpty`: one flattened read per image when the best multi-line band reads as
     * nothing. `knownStates`: issuing state and nationality must be ICAO codes. `deskew`: per-band
     * text angle (measured, off).
     */
    /** 2.2: search again at the angle of stacks of long lines tilted off the frame's text angle (perspective, a second page). */
    tilt: z.boolean().optional(),
    /** 2.2: the 180° read turns the band's own crop (2.0/2.1 cut the mirrored region of the frame). */
    exactFlip: z.boolean().optional(),
    /** 2.2: the OCR-B glyph reader confirms and votes with tesseract's reads of a band. */
    glyphVote: z.boolean().optional(),
    /** 2.3 (an experiment under 2.2): glyph reads vote and confirm but never veto a band. */
    glyphWeak: z.boolean().optional(),
    /**
     * 2.3: the grey image the band search and reads see: 'value' = each pixel's brightest channel
     * (tints wash out); 'auto' = search on luma, read each band from luma or the brightest channel,
     * whichever separates its ink from its paper better.
     */
    ink: z.enum(['luma', 'value', 'auto']).optional(),
    /** 2.3: a third line join sized to the frame's character height when the print is large (MRZ-only crops). */
    adaptiveJoin: z.boolean().optional(),
    /** 2.3: bands with lines under `belowPx` are blurred by `preBlur` px and enlarged (Lanczos-3) to `lineHeightPx`. */
    upscale: z.object({ belowPx: z.number().positive(), lineHeightPx: z.number().positive(), preBlur: z.number().min(0) }).optional(),
    /**
     * 2.4: a bounded cost for enlarged bands: `maxReads` tesseract reads per enlarged band, stop a
     * turn of it when two of its reads share no MRZ line (`stopApart`), and no quarter-turn search
     * once a band read the right way up (`keepTurn`). See engine/document/README.md "Document engine 2.4".
     */
    enlargedBand: z.object({
      maxReads: z.number().int().min(1).max(40), stopApart: z.boolean(), keepTurn: z.boolean(),
      /** 2.6: tesseract reads on enlarged bands per image, all bands together. */
      imageReads: z.number().int().min(1).max(40).optional(),
    }).optional(),
    /**
     * 2.5: a band is stopped as soon as two of its tesseract reads pass every check and print
     * different lines (`conflictStop`; 2.1's unanimity rule, applied at once and in the
     * confirmation too; 'enlarged': small-glyph bands only, 'all': every band), and an unconfirmed read is reported `mrz_unreadable`, never
     * `mrz_check_digits_failed` (`honestReason`). See engine/document/README.md "Document engine 2.5".
     */
    conflictStop: z.enum(['enlarged', 'all']).optional(),
    honestReason: z.boolean().optional(),
    /** 2.5: a last band search at this fraction of the text mask's Otsu level when no band was found at all. */
    faintSearch: z.number().positive().max(1).optional(),
    /** 2.6: thin straight lines drawn over the MRZ (a focus crosshair, an illustration's outline) are taken out of the band search's text mask ('mask'), and with 'crops' out of each band's crops too. */
    overlayLines: z.enum(['mask', 'crops']).optional(),
    /** 2.6: a band read as one lone MRZ line of TD3/TD2 width is grown about two lines each way and read once more. */
    growLone: z.boolean().optional(),
    /** 2.7: each line is grown through its filler gaps before lines are paired into bands (a name line cut short at its fillers still pairs). */
    extendFirst: z.boolean().optional(),
    /** 2.8: reads fitted to the MRZ's grid: stray marks at a line's edges dropped, fillers rearranged under the check digits. */
    lineRepair: z.boolean().optional(),
    /** 2.8: a read showing fillers but no MRZ lines is read again one text line at a time. */
    splitLines: z.boolean().optional(),
    /** 2.9: the learned line recogniser (PP-OCRv4 rec) confirms tesseract's reads and votes without a veto. */
    lineRec: z.boolean().optional(),
    /**
     * 3.0: the project's own MRZ recogniser (`mrz/mrzrec.ts`): a first read where tesseract's fails its
     * check digits, a confirmation and a vote otherwise. The model file and its sha256 are part of the
     * settings, so a profile names the exact model (a retrained model is a new file and a new version).
     */
    mrzRec: z.object({ model: z.string().regex(/^[\w.-]+\.onnx$/), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).optional(),
    /** 3.0: tesseract reads that agree with each other confirm only when the MRZ recogniser does not read the band otherwise (`mrz/scan.ts` `mrzVeto`). */
    mrzVeto: z.boolean().optional(),
    /** 3.3: the recogniser's read vetoes only when it passes at least this many of its own check digits (`mrz/scan.ts` `mrzVetoMinChecks`). */
    mrzVetoMinChecks: z.number().int().min(0).max(5).optional(),
    /** 3.4: the recogniser's read with `<` at the composite check digit completes that digit from its data and still needs another family's identical read (`mrz/scan.ts` `mrzCompositeErasure`). */
    mrzCompositeErasure: z.boolean().optional(),
    /** 3.5: a character a check-digit swap chose confirms and votes only where some read printed it as it stands (`mrz/scan.ts` `swapAsRead`). */
    swapAsRead: z.boolean().optional(),
    /** 3.6: the document code's first letter for the read's family and the sex letter must be ICAO's (`mrz/scan.ts` `icaoFieldsFit`). */
    icaoFields: z.boolean().optional(),
    /** 3.7: the band search also runs across the dominant text, a quarter turn from it (`mrz/locate.ts` `across`). */
    acrossText: z.boolean().optional(),
    faintUnlessStack: z.boolean().optional(),
    inkSearch: z.boolean().optional(),
    /** 3.10: the MRZ recogniser's veto is excused inside fields whose check digit fails in its own read (`mrz/scan.ts` `vetoExcuse`). */
    vetoExcuse: z.boolean().optional(),
    /** 3.10: of versions passing every check digit, the one most reader families print wins over versions one family prints (`mrz/scan.ts` `familyMajority`). */
    familyMajority: z.boolean().optional(),
    /** 3.10: tesseract's reads alone confirm no character of equal check value to a look-alike (6/G, 1/L, a filler read 0 or K) unless another family prints it alike (`mrz/scan.ts` `blindTwins`). */
    blindTwins: z.boolean().optional(),
    /** 3.11: of check-valid versions as many reads print, the one whose lines more reader families print is reported for review (`mrz/scan.ts` `reportFamilies`). */
    reportFamilies: z.boolean().optional(),
    /** 3.25: an unreadable band's reported read takes each uncovered character most reader families print among its aligned reads (`mrz/scan.ts` `reportVote`). */
    reportVote: z.boolean().optional(),
    /** 3.26: an unreadable scan reports a read that can be an MRZ of its format over one that cannot, before check digits passed (`mrz/scan.ts` `reportSound`). */
    reportSound: z.boolean().optional(),
    /** 3.27: check-valid versions settled by two families when the dissent's only family also prints the majority's version (`mrz/scan.ts` `dividedDissent`). */
    dividedDissent: z.boolean().optional(),
    /** 3.29: a sound read most of whose check digits fail, printed alike by a second reader family, is reported as failing its check digits and ends the scan; a settled band's read that fails one says so too (`mrz/scan.ts` `misprintFamilies`). */
    misprintFamilies: z.boolean().optional(),
    /** 3.30: once the best band has not read, one more band search whose text mask keeps one-pixel strokes (`mrz/locate.ts` `withoutSmallComponents`, `mrz/scan.ts` `thinSearch`). */
    thinSearch: z.boolean().optional(),
    /** 3.31: the MRZ recogniser reads a band before tesseract, a valid read of it confirmed by the glyph reader settles the band, and bands it reads nothing in are read after the others (`mrz/scan.ts` `recFirst`). */
    recFirst: z.boolean().optional(),
    /** 3.32: a name line settled by the two learned line readers alone does not settle against a tesseract or glyph read printing it with one filler more or fewer (`mrz/scan.ts` `fillerDissent`). */
    fillerDissent: z.boolean().optional(),
    /** 3.12: the band search at the frame's second text direction when the best band does not read, and last when no band was found (`mrz/scan.ts` `secondText`). */
    secondText: z.boolean().optional(),
    /** 3.12: a merged band whose rows hold two or three lines ranks as a stack (`mrz/locate.ts` `splitMerged`). */
    splitMerged: z.boolean().optional(),
    /** 3.12: a band formed at more than one join ranks by its best score (`mrz/locate.ts` `bestJoin`). */
    bestJoin: z.boolean().optional(),
    /** 3.13: `8` and `S` join 3.10's check-blind twins (`mrz/scan.ts` `blindEights`). */
    blindEights: z.boolean().optional(),
    /** 3.18: a check-blind character's witness of another family counts only where its own check digit there holds (`mrz/scan.ts` `witnessChecks`). */
    witnessChecks: z.boolean().optional(),
    /** 3.19: the MRZ recogniser's veto holds against the per-character vote as against a confirmation (`mrz/scan.ts` `voteVeto`). */
    voteVeto: z.boolean().optional(),
    /** 3.20: a band is read turned only where the MRZ recogniser reads an MRZ that way (`mrz/scan.ts` `turnSeen`). */
    turnSeen: z.boolean().optional(),
    /** 3.20: a band inside a band already read the right way up, with all its lines, is not read (`mrz/scan.ts` `innerSkip`). */
    innerSkip: z.boolean().optional(),
    /** 3.21: one more band search at this multiple of `workSide` once the best band has not read (`mrz/scan.ts` `fineSearch`). */
    fineSearch: z.number().min(1).max(3).optional(),
    /** 3.22: the Russian internal passport's names keep the digits its encoding uses for letters (`mrz/repair.ts` `repairLines`). */
    russianNames: z.boolean().optional(),
    /** 3.22: a band's retries stop once 3+ reads by 2+ reader families all print the same lines (`mrz/scan.ts` `settledBand`). */
    settledStop: z.boolean().optional(),
    /** 3.23: a band gets tesseract reads only where the MRZ recogniser reads an MRZ in it, either way up (`mrz/scan.ts` `recGate`). */
    recGate: z.boolean().optional(),
    /** 3.24: 2x36 lines beginning IDFRA are typed as the French identity card's fields, not TD2's (`mrz/repair.ts` `FRENCH_ID`). */
    frenchId: z.boolean().optional(),
    /** 3.14: tesseract reads no unsure line a second time inverted (`ocr/workers.ts` `mrzReadParams`). */
    noInvert: z.boolean().optional(),
    /** 3.15: check-valid versions that differ in the name line only are settled by two reader families, not three (`mrz/scan.ts` `nameMajority`). */
    nameMajority: z.boolean().optional(),
    /** 3.10: a Case's template band read replaces a scan that refused only if two reads print it and no check-valid scan read prints other lines (`analyze.ts` `fallbackConfirmed`). */
    fallbackConfirm: z.boolean().optional(),
    /** Experiment on 3.6 (measured, in no version): the band's image turned with this interpolator, not bilinear (`mrz/scan.ts` `bandCropper`). */
    turnInterpolator: z.enum(['bicubic', 'locallyBoundedBicubic', 'nohalo']).optional(),
    /** 3.1: when no read is valid, the read reported for review is the best supported (`mrz/scan.ts` `reportBest`): the MRZ recogniser's read competes on check digits, and of two passing versions the one more reads print. */
    reportBest: z.boolean().optional(),
    retry: z.object({ variants: z.array(z.enum(['tall', 'thin', 'flat', 'grey'])), vote: z.boolean(), primary: z.enum(['grey', 'flat']).optional(), deskew: z.boolean().optional(), rectify: z.boolean().optional(), knownStates: z.boolean().optional(), flatWhenEmpty: z.boolean().optional() }).optional(),
  }).optional(),
  /** 2.x visual zone: captions read with the document's language model; CURP dates checked on the calendar. */
  visualZone: z.object({ captions: z.boolean(), curpDateCheck: z.boolean() }).optional(),
  /**
   * 2.x capture-time advice (`engine.quickQuality`): Laplacian-variance floor. Set from the real
   * tuning images: sharp captures 148–1439, the same blurred with σ = 2 gave 6–53, σ = 6 gave 3–5;
   * 30 flags only blur that clearly defeats reading (advice, never a verdict).
   */
  quality: z.object({ minSharpness: z.number().nonnegative() }).optional(),
});
export type TDocumentEngineSettings = z.infer<typeof ZDocumentEngineSettings>;
export type DocumentEngineSettings = Partial<TDocumentEngineSettings>;

export const DEFAULT_DOCUMENT_SETTINGS: TDocumentEngineSettings = {
  version: 'document-engine@1.0.0',
  maxInputPixels: 40_000_000,
  maxInputBytes: 25 * 1024 * 1024,
  workingMaxSide: 2400,
  pxPerMm: 12,
  ocr: { glyphReader: true, mrzTimeoutMs: 8000, visualTimeoutMs: 8000, maxMrzAttempts: 5 },
  tessdata: { mrzSha256: 'ece2a54f125a73792f9cec74e6f8e62f6e5e00c7f19153ba865af689be5b5f01' },
  thresholds: { nameMatch: 0.9, nameMismatch: 0.75, glyphNameMargin: 0.06, mrzMinConfidence: 0.5, aspectTolerance: 0.12 },
};

/**
 * document-engine 2.0 (engine profile ep-2026.11-5): MRZ found anywhere on real captures
 * (`mrz/locate.ts`, `mrz/scan.ts`), every ICAO family (visas, French ID, long numbers, absent
 * expiry), BMP accepted. Every 1.x value is kept.
 */
export const DOCUMENT_SETTINGS_V2: TDocumentEngineSettings = {
  ...DEFAULT_DOCUMENT_SETTINGS,
  version: 'document-engine@2.0.0',
  scan: { workSide: 1000, maxBands: 4, lineHeightPx: 30, maxReads: 10, acceptBmp: true },
  visualZone: { captions: true, curpDateCheck: true },
  quality: { minSharpness: 30 },
};

/**
 * document-engine 2.1 (engine profile ep-2026.11-7): one flattened read when the best band reads as
 * nothing, more reads of a band found the right way up but not read validly (flattened, thinned,
 * another scale), a per-character vote for check-digit-covered characters, unanimity of valid
 * reads, ICAO state codes, read budget 12; and in analyze a stable template read of a broken
 * check digit is kept. See engine/document/README.md. Every other 2.0 value is kept.
 */
export const DOCUMENT_SETTINGS_V3: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V2,
  version: 'document-engine@2.1.0',
  scan: { ...DOCUMENT_SETTINGS_V2.scan!, maxReads: 12, retry: { primary: 'grey', flatWhenEmpty: true, variants: ['flat', 'thin', 'tall'], vote: true, knownStates: true } },
};

/**
 * document-engine 2.2 (engine profile ep-2026.11-8): see engine/document/README.md "Document engine 2.2".
 * Every 2.1 value is kept; `scan.tilt` is new.
 */
export const DOCUMENT_SETTINGS_V4: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V3,
  version: 'document-engine@2.2.0',
  scan: { ...DOCUMENT_SETTINGS_V3.scan!, maxReads: 7, tilt: true, exactFlip: true, glyphVote: true },
};

/**
 * document-engine 2.3 (engine profile ep-2026.11-9): small glyphs and tinted MRZs, see
 * engine/document/README.md "Document engine 2.3". Every 2.2 value is kept; `scan.ink`,
 * `scan.adaptiveJoin` and `scan.upscale` are new, and the glyph reader's reads become weak
 * (`scan.glyphWeak`: they vote and confirm but never veto, measured after 2.2's final run).
 */
export const DOCUMENT_SETTINGS_V5: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V4,
  version: 'document-engine@2.3.0',
  scan: { ...DOCUMENT_SETTINGS_V4.scan!, ink: 'auto', adaptiveJoin: true, upscale: { belowPx: 14, lineHeightPx: 36, preBlur: 0.5 }, glyphWeak: true },
};

/**
 * document-engine 2.4 (engine profile ep-2026.11-10): a bounded cost for small-glyph bands that
 * cannot be read, see engine/document/README.md "Document engine 2.4". Every 2.3 value is kept;
 * `scan.enlargedBand` is new.
 */
export const DOCUMENT_SETTINGS_V6: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V5,
  version: 'document-engine@2.4.0',
  scan: { ...DOCUMENT_SETTINGS_V5.scan!, enlargedBand: { maxReads: 5, stopApart: true, keepTurn: true } },
};

/**
 * document-engine 2.5 (engine profile ep-2026.11-12): a small-glyph band whose reads pass every
 * check and disagree is stopped at once, an unconfirmed read is `mrz_unreadable`, and a frame with
 * no band at all is searched once more at half the text mask's level; see
 * engine/document/README.md "Document engine 2.5". Every 2.4 value is kept; `scan.conflictStop`,
 * `scan.honestReason` and `scan.faintSearch` are new.
 */
export const DOCUMENT_SETTINGS_V7: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V6,
  version: 'document-engine@2.5.0',
  scan: { ...DOCUMENT_SETTINGS_V6.scan!, conflictStop: 'enlarged', honestReason: true, faintSearch: 0.5 },
};

/**
 * document-engine 2.6: thin lines drawn over the MRZ (a camera app's focus crosshair, a vendor
 * illustration's outline) are taken out of the band search's text mask and of each band's crop
 * (`scan.overlayLines`), a band read as one lone passport line is grown to its neighbours
 * (`scan.growLone`), and enlarged (small-print) bands share an image-wide bound of 6 tesseract reads
 * (`scan.enlargedBand.imageReads`); see engine/document/README.md "Document engine 2.6". Every
 * other 2.5 value is kept.
 */
export const DOCUMENT_SETTINGS_V8: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V7,
  version: 'document-engine@2.6.0',
  scan: { ...DOCUMENT_SETTINGS_V7.scan!, overlayLines: 'crops', growLone: true, enlargedBand: { ...DOCUMENT_SETTINGS_V7.scan!.enlargedBand!, imageReads: 6 } },
};

/**
 * document-engine 2.7: each line of the band search is grown sideways through its filler gaps
 * before lines are paired into bands (`scan.extendFirst`). Widely spaced `<` fillers drop out of
 * the joined text mask and cut a name line short, and a line under 75 % of its neighbour's width
 * never paired, so a clean MRZ went unfound (MIDV-2020 templates on the public tuning side). Every
 * other 2.5 value is kept (2.6 was not adopted); see engine/document/README.md "Document engine 2.7".
 */
export const DOCUMENT_SETTINGS_V9: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V7,
  version: 'document-engine@2.7.0',
  scan: { ...DOCUMENT_SETTINGS_V7.scan!, extendFirst: true },
};

/**
 * document-engine 2.8: reads are fitted to the MRZ's grid before they are judged
 * (`scan.lineRepair`): a stray mark read before the document code or after the name line's last
 * filler run is dropped, and a read that fails its check digits is tried with its `<` fillers
 * rearranged (every format of its line count), kept when exactly one arrangement passes every
 * check. Every other 2.7 value is kept; see engine/document/README.md "Document engine 2.8".
 */
export const DOCUMENT_SETTINGS_V10: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V9,
  version: 'document-engine@2.8.0',
  scan: { ...DOCUMENT_SETTINGS_V9.scan!, lineRepair: true, splitLines: true },
};

/**
 * document-engine 2.9: a learned line recogniser beside tesseract (`scan.lineRec`, `mrz/rec.ts`):
 * PaddleOCR's PP-OCRv4 recognition model reads the band's first crop line by line; a tesseract read
 * it prints identically is confirmed, and it votes without a veto. Every other 2.8 value is kept;
 * see engine/document/README.md "Document engine 2.9".
 */
export const DOCUMENT_SETTINGS_V11: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V10,
  version: 'document-engine@2.9.0',
  scan: { ...DOCUMENT_SETTINGS_V10.scan!, lineRec: true },
};

/** The first trained MRZ recogniser (tools/mrz-rec, 2026-11-29): about 6 900 steps (40 min on 2 cores) over 80 000 synthetic lines. */
export const MRZ_REC_1 = { model: 'mrz-rec-1.onnx', sha256: '95335b71e4662a547e537a6df908f3697ae4415b7ea1f7c1b5ceb2f6adc817f6' } as const;

/**
 * document-engine 3.0: the project's own MRZ line recogniser (`scan.mrzRec`, `mrz/mrzrec.ts`,
 * trained by `tools/mrz-rec/` on synthetic OCR-B lines only). Where tesseract's first read of a band
 * fails its check digits and the recogniser's passes, the recogniser's read is the band's first read,
 * still needing a second, independent read that prints the same lines. Every other 2.9 value is
 * kept; see engine/document/README.md "Document engine 3.0".
 */
export const DOCUMENT_SETTINGS_V12: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V11,
  version: 'document-engine@3.0.0',
  scan: { ...DOCUMENT_SETTINGS_V11.scan!, mrzRec: MRZ_REC_1, mrzVeto: true },
};

/**
 * document-engine 3.1: what an unreadable scan reports for review is its best-supported read
 * (`scan.reportBest`): the MRZ recogniser's read competes with tesseract's on check digits passed, and
 * of two versions that both pass, the one more reads print. Which reads are valid is unchanged.
 * A second recogniser (tools/mrz-rec `--arch lstm`) was measured and is not part of it:
 * engine/document/README.md "Document engine 3.1".
 */
export const DOCUMENT_SETTINGS_V13: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V12,
  version: 'document-engine@3.1.0',
  scan: { ...DOCUMENT_SETTINGS_V12.scan!, reportBest: true },
};

/**
 * The first recogniser to learn from real lines (tools/mrz-rec/real_cv.py, 2026-11-29): mrz-rec-1's
 * weights, then 1 000 steps on synthetic OCR-B lines with a quarter of each batch drawn from the
 * tuning images' real MRZ line crops (`bench:mrz-lines --dump`, full size and small print). Held-out
 * and unseen images are never among them.
 */
export const MRZ_REC_3 = { model: 'mrz-rec-3.onnx', sha256: '3207583ccdd94d326f82ef57a628f86c8021ada9f8bb8e5b748bd39d262b6aba' } as const;

/**
 * document-engine 3.2, built and measured, in no profile: the MRZ recogniser is mrz-rec-3, fine-tuned
 * on real tuning lines as well as synthetic ones (a grouped cross-validation on the tuning crops: real
 * lines of the other documents 165 -> 189 of 236 lines exact; the same steps on synthetic lines only
 * 165 -> 162). Not adopted: the synthetic sample loses a valid read to 3.0's veto from a poor
 * recogniser read. Every other 3.1 value is kept; see engine/document/README.md "Document engine 3.2".
 */
export const DOCUMENT_SETTINGS_V14: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V13,
  version: 'document-engine@3.2.0',
  scan: { ...DOCUMENT_SETTINGS_V13.scan!, mrzRec: MRZ_REC_3 },
};

/**
 * document-engine 3.3: 3.2 (the recogniser mrz-rec-3, which learned from real tuning lines) with a
 * veto that weighs the recogniser's read: it refuses two agreeing tesseract reads only when it passes
 * at least one of its own check digits (`scan.mrzVetoMinChecks`). 3.2's synthetic loss was a veto by a
 * read with a character dropped and no check digit passed: a read that fails everything is no
 * evidence against one that passes everything. Built and measured, in no profile: a tuning card at
 * x0.3 still loses its valid read under mrz-rec-3. See engine/document/README.md "Document engine 3.3".
 */
export const DOCUMENT_SETTINGS_V15: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V14,
  version: 'document-engine@3.3.0',
  scan: { ...DOCUMENT_SETTINGS_V14.scan!, mrzVetoMinChecks: 1 },
};

/**
 * document-engine 3.4: 3.3 (the recogniser mrz-rec-3, learned from real tuning lines, and the veto that
 * weighs its read) with the recogniser's `<` at a composite check digit taken as an unread digit and
 * completed from the data (`scan.mrzCompositeErasure`); the read still needs another family's
 * identical read to be valid. Measured reason: 3.3 lost a tuning card's valid read at x0.3 because
 * mrz-rec-3 read its composite digit as `<`, so its read failed and could not be the first read that
 * PP-OCRv4 confirms, as mrz-rec-1's was. See engine/document/README.md "Document engine 3.4".
 */
export const DOCUMENT_SETTINGS_V16: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V15,
  version: 'document-engine@3.4.0',
  scan: { ...DOCUMENT_SETTINGS_V15.scan!, mrzCompositeErasure: true },
};

/**
 * document-engine 3.5: 3.4 with check-digit swaps treated as guesses (`scan.swapAsRead`): a character
 * that `correctByCheckDigits` chose (the one confusable swap under which every check digit holds)
 * confirms a version only if some agreeing read printed it as it stands, and does not vote. Measured
 * reason: on the tuning and stress sets the swap chose wrong 5 of 7 times (it cancels an error
 * elsewhere in the field), and never fired on the synthetic sample. See engine/document/README.md
 * "Document engine 3.5".
 */
export const DOCUMENT_SETTINGS_V17: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V16,
  version: 'document-engine@3.5.0',
  scan: { ...DOCUMENT_SETTINGS_V16.scan!, swapAsRead: true },
};

/**
 * document-engine 3.6: 3.5 with ICAO's fixed fields in the scan's plausibility (`scan.icaoFields`):
 * a read is valid only if its document code begins with the letter its family takes (TD1/TD2 A, C
 * or I; a passport P; a visa V) and its sex letter is F, M, `<` or X (H on Mexican documents). A
 * Case's template asked as much already; the scan without a template (any ICAO document, the
 * benches, the CLI) did not. Measured reason: single reads that pass every check digit and are wrong
 * include a passport read as a TD2 and an `F` read as `T` (`npm run bench:mrz-reads`). See
 * engine/document/README.md "Document engine 3.6".
 */
export const DOCUMENT_SETTINGS_V18: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V17,
  version: 'document-engine@3.6.0',
  scan: { ...DOCUMENT_SETTINGS_V17.scan!, icaoFields: true },
};

/**
 * document-engine 3.7: 3.6 with the band search also across the dominant text (`scan.acrossText`): one
 * more pass at the text angle turned a quarter, whose most MRZ-like band is read first only if no band
 * along the text is as MRZ-like, else last. Measured reason: a data page photographed a quarter turn
 * off (and skewed) has its upper page's print along the frame's rows and its MRZ across them; 3.6
 * searched only along, spent its read budget there and never reached the quarter-turn search (the UK
 * specimen turned 90°, 270°, 15° and −20°: unreadable under 3.6, valid and exact under 3.7). See
 * engine/document/README.md "Document engine 3.7".
 */
export const DOCUMENT_SETTINGS_V19: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V18,
  version: 'document-engine@3.7.0',
  scan: { ...DOCUMENT_SETTINGS_V18.scan!, acrossText: true },
};

/**
 * Document engine 3.8 (`DOCUMENT_SETTINGS_V20`, profile ep-2026.11-24): 3.7 with the faint search also where every
 * band found is one blob and nothing read valid (`scan.faintUnlessStack`).
 */
export const DOCUMENT_SETTINGS_V20: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V19,
  version: 'document-engine@3.8.0',
  scan: { ...DOCUMENT_SETTINGS_V19.scan!, faintUnlessStack: true },
};

/**
 * Document engine 3.9 (`DOCUMENT_SETTINGS_V21`, measured, in no profile): 3.8 with one band search on the brightest channel
 * when the best band does not read, its band cut from that channel (`scan.inkSearch`).
 */
export const DOCUMENT_SETTINGS_V21: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V20,
  version: 'document-engine@3.9.0',
  scan: { ...DOCUMENT_SETTINGS_V20.scan!, inkSearch: true },
};

/**
 * Document engine 3.10 (`DOCUMENT_SETTINGS_V22`): 3.8 where a Case's template band read stands in for a
 * scan that refused only when it meets the scan's standard (`scan.fallbackConfirm`): printed by two
 * reads, contradicted by no check-valid read. The scan without a template is 3.8's.
 */
export const DOCUMENT_SETTINGS_V22: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V20,
  version: 'document-engine@3.10.0',
  scan: { ...DOCUMENT_SETTINGS_V20.scan!, fallbackConfirm: true, vetoExcuse: true, familyMajority: true, blindTwins: true },
};

/**
 * Document engine 3.11 (`DOCUMENT_SETTINGS_V23`): 3.10 where, of check-valid versions as many reads print,
 * the one reported for review is the one whose lines more reader families print (`scan.reportFamilies`).
 * Validity as 3.10.
 */
export const DOCUMENT_SETTINGS_V23: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V22,
  version: 'document-engine@3.11.0',
  scan: { ...DOCUMENT_SETTINGS_V22.scan!, reportFamilies: true },
};

/**
 * Document engine 3.12 (`DOCUMENT_SETTINGS_V24`): 3.11 with three band-search rules for turned and
 * skewed photos: a search at the frame's second text direction when the best band does not read (last,
 * after the quarter-turn and faint searches, when the first search found no band; `scan.secondText`);
 * a band whose lines merged into one blob ranks as the stack its rows show (`scan.splitMerged`); a band
 * found at more than one join ranks by its best score (`scan.bestJoin`).
 */
export const DOCUMENT_SETTINGS_V24: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V23,
  version: 'document-engine@3.12.0',
  scan: { ...DOCUMENT_SETTINGS_V23.scan!, secondText: true, splitMerged: true, bestJoin: true },
};

/**
 * Document engine 3.13 (`DOCUMENT_SETTINGS_V25`): 3.12 where `8` and `S` (S = 28, worth 8 to every
 * check digit) join 3.10's check-blind twins: agreeing tesseract reads confirm neither in the number or
 * optional data unless another reader family prints it alike (`scan.blindEights`).
 */
export const DOCUMENT_SETTINGS_V25: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V24,
  version: 'document-engine@3.13.0',
  scan: { ...DOCUMENT_SETTINGS_V24.scan!, blindEights: true },
};

/**
 * Document engine 3.14 (`DOCUMENT_SETTINGS_V26`): 3.13 whose MRZ tesseract reads do not read an
 * unsure line a second time inverted (`scan.noInvert`; the MRZ is dark print on light in every band
 * cut). A speed release for the tail: the inverted pass cost about 40 % of a read of a band of captions
 * or security print, where every line is unsure. Held-out and unseen read for read as 3.13; on the
 * tuning side two stress images changed, one each way (engine/document/README.md "Document engine 3.14").
 */
export const DOCUMENT_SETTINGS_V26: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V25,
  version: 'document-engine@3.14.0',
  scan: { ...DOCUMENT_SETTINGS_V25.scan!, noInvert: true },
};

/**
 * Document engine 3.15 (`DOCUMENT_SETTINGS_V27`): 3.14 where check-valid versions of a band that
 * differ in the name line only (which no check digit covers) are settled by two reader families
 * printing one of them alike, not three (`scan.nameMajority`, with 3.10's `familyMajority` rule
 * otherwise). Tuning: 7 more valid reads, none lost, the same reads and lines; held-out and unseen read
 * for read as 3.14 (engine/document/README.md "Document engine 3.15").
 */
export const DOCUMENT_SETTINGS_V27: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V26,
  version: 'document-engine@3.15.0',
  scan: { ...DOCUMENT_SETTINGS_V26.scan!, nameMajority: true },
};

/**
 * Document engine 3.16 (`DOCUMENT_SETTINGS_V28`): 3.15 with the per-band deskew of 2.1 turned on
 * (`scan.retry.deskew`): each band is levelled by its own text angle before any reader sees it. Built
 * in 2.1 and left off then (no gain before the line-by-line readers existed); since 3.0 the MRZ
 * recogniser and the glyph reader cut a band into lines, and a band 1 degree off level (a photo or
 * scan barely askew, where the frame's angle search keeps 0) lost them: tuning turned +-1 degree, valid
 * 7 -> 13 and 9 -> 13 of 15 (real), 12 -> 20 and 15 -> 20 of 26 (public). Held-out and unseen: the same
 * outcome on every image (engine/document/README.md "Document engine 3.16").
 */
export const DOCUMENT_SETTINGS_V28: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V27,
  version: 'document-engine@3.16.0',
  scan: { ...DOCUMENT_SETTINGS_V27.scan!, retry: { ...DOCUMENT_SETTINGS_V27.scan!.retry!, deskew: true } },
};

/**
 * Document engine 3.17 (`DOCUMENT_SETTINGS_V29`): 3.16 with each band made a rectangle again when its
 * lines show a slanted view (`scan.retry.rectify`, `mrz/rectify.ts`): the ends of its first and last
 * lines are the corners of the quadrilateral the MRZ was printed in, and a homography maps it back.
 * Bands printed square are cut as under 3.16 (engine/document/README.md "Document engine 3.17").
 */
export const DOCUMENT_SETTINGS_V29: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V28,
  version: 'document-engine@3.17.0',
  scan: { ...DOCUMENT_SETTINGS_V28.scan!, retry: { ...DOCUMENT_SETTINGS_V28.scan!.retry!, rectify: true } },
};

/**
 * Document engine 3.18 (`DOCUMENT_SETTINGS_V30`): 3.17 with a check-blind character (`<`/`0`, `1`/`L`,
 * `6`/`G`, `8`/`S`) printed by tesseract confirmed by another family's read only where that read's own
 * check digit over the place holds (`scan.witnessChecks`). A read whose check fails there is broken
 * there by its own account; at 6 px lines a glyph read one cell out of step printed a filler as `0`
 * and confirmed tesseract's misread (engine/document/README.md "Document engine 3.18").
 */
export const DOCUMENT_SETTINGS_V30: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V29,
  version: 'document-engine@3.18.0',
  scan: { ...DOCUMENT_SETTINGS_V29.scan!, witnessChecks: true },
};

/**
 * Document engine 3.19 (`DOCUMENT_SETTINGS_V31`): 3.18 with the MRZ recogniser's veto holding against
 * the per-character vote as it holds against two agreeing tesseract reads (`scan.voteVeto`): at 8 px
 * lines under perspective, three tesseract reads of one name outvoted the recogniser's right read in
 * the vote, a silent misread (engine/document/README.md "Document engine 3.19").
 */
export const DOCUMENT_SETTINGS_V31: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V30,
  version: 'document-engine@3.19.0',
  scan: { ...DOCUMENT_SETTINGS_V30.scan!, voteVeto: true },
};

/**
 * Document engine 3.20 (`DOCUMENT_SETTINGS_V32`): 3.19 without two kinds of reads that could not change
 * its outcome: a band's turned read where the MRZ recogniser reads no MRZ that way (`scan.turnSeen`),
 * and the bands inside a band already read the right way up with all its lines (`scan.innerSkip`).
 * They were the slowest held-out scans' extra cost (engine/document/README.md "Document engine 3.20").
 */
export const DOCUMENT_SETTINGS_V32: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V31,
  version: 'document-engine@3.20.0',
  scan: { ...DOCUMENT_SETTINGS_V31.scan!, turnSeen: true, innerSkip: true },
};

/**
 * Document engine 3.21 (`DOCUMENT_SETTINGS_V33`): 3.20 with one more band search on a working image 1.4
 * times the size once the best band has not read, or where the first search found none
 * (`scan.fineSearch`): a page photographed whole on a table has MRZ strokes too thin at the working size
 * to form lines (engine/document/README.md "Document engine 3.21").
 */
export const DOCUMENT_SETTINGS_V33: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V32,
  version: 'document-engine@3.21.0',
  scan: { ...DOCUMENT_SETTINGS_V32.scan!, fineSearch: 1.4 },
};

/**
 * Document engine 3.22 (`DOCUMENT_SETTINGS_V34`): 3.21 reading the Russian internal passport's names
 * as its national encoding prints them, digits included (`scan.russianNames`), and no more retries of
 * a band that three or more reads by two or more reader families all print alike (`scan.settledStop`)
 * (engine/document/README.md "Document engine 3.22").
 */
export const DOCUMENT_SETTINGS_V34: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V33,
  version: 'document-engine@3.22.0',
  scan: { ...DOCUMENT_SETTINGS_V33.scan!, russianNames: true, settledStop: true },
};

/**
 * Document engine 3.23 (`DOCUMENT_SETTINGS_V35`): 3.22 with tesseract reading a band only where the MRZ
 * recogniser reads an MRZ in it, upright or turned (`scan.recGate`) (engine/document/README.md
 * "Document engine 3.23").
 */
export const DOCUMENT_SETTINGS_V35: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V34,
  version: 'document-engine@3.23.0',
  scan: { ...DOCUMENT_SETTINGS_V34.scan!, recGate: true },
};

/**
 * Document engine 3.24 (`DOCUMENT_SETTINGS_V36`): 3.22 (not 3.23) with the French national identity
 * card's own field types in the type repair (`scan.frenchId`) (engine/document/README.md "Document
 * engine 3.24").
 */
export const DOCUMENT_SETTINGS_V36: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V34,
  version: 'document-engine@3.24.0',
  scan: { ...DOCUMENT_SETTINGS_V34.scan!, frenchId: true },
};

/**
 * Document engine 3.25 (`DOCUMENT_SETTINGS_V37`): 3.24 with an unreadable band's reported read voted at
 * the places no check digit covers (`scan.reportVote`) (engine/document/README.md "Document engine 3.25").
 */
export const DOCUMENT_SETTINGS_V37: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V36,
  version: 'document-engine@3.25.0',
  scan: { ...DOCUMENT_SETTINGS_V36.scan!, reportVote: true },
};

/**
 * Document engine 3.26 (`DOCUMENT_SETTINGS_V38`): 3.25 with the read an unreadable scan reports chosen
 * among reads that can be an MRZ of their format first (`scan.reportSound`) (engine/document/README.md
 * "Document engine 3.26").
 */
export const DOCUMENT_SETTINGS_V38: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V37,
  version: 'document-engine@3.26.0',
  scan: { ...DOCUMENT_SETTINGS_V37.scan!, reportSound: true },
};

/**
 * Document engine 3.27 (`DOCUMENT_SETTINGS_V39`): 3.26 with a band's check-valid versions settled by two
 * reader families when the dissent is printed only by a family that also prints the majority's version
 * (`scan.dividedDissent`) (engine/document/README.md "Document engine 3.27").
 */
export const DOCUMENT_SETTINGS_V39: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V38,
  version: 'document-engine@3.27.0',
  scan: { ...DOCUMENT_SETTINGS_V38.scan!, dividedDissent: true },
};

/**
 * The MRZ recogniser of 2026-12-02 (tools/mrz-rec/real_cv.py `--fold -1`): mrz-rec-3's recipe (mrz-rec-1's
 * weights, unfolded from its ONNX file, then 1 000 steps of synthetic OCR-B lines with a quarter of each
 * batch real tuning line crops) on the grown tuning side: 299 crops of 34 documents instead of 236 of 24.
 * Held-out and unseen images are never among them.
 */
export const MRZ_REC_4 = { model: 'mrz-rec-4.onnx', sha256: '8a4126ae36898d1d49c9e998315b6a77f2f66e1169b742ec2ec7590f331cf41f' } as const;

/**
 * Document engine 3.28 (`DOCUMENT_SETTINGS_V40`): 3.27 with the recogniser mrz-rec-4 (`scan.mrzRec`),
 * which learned from every tuning line of the four data rounds (engine/document/README.md
 * "Document engine 3.28").
 */
export const DOCUMENT_SETTINGS_V40: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V39,
  version: 'document-engine@3.28.0',
  scan: { ...DOCUMENT_SETTINGS_V39.scan!, mrzRec: MRZ_REC_4 },
};

/**
 * Document engine 3.29 (`DOCUMENT_SETTINGS_V41`): 3.28 with a band whose first read is sound in
 * structure but fails most of its check digits, and which another reader family prints alike, reported
 * as `mrz_check_digits_failed` at once, and a band 3.22 settled on a read that fails a check digit
 * reported so too (`scan.misprintFamilies`) (engine/document/README.md "Document engine 3.29").
 */
export const DOCUMENT_SETTINGS_V41: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V40,
  version: 'document-engine@3.29.0',
  scan: { ...DOCUMENT_SETTINGS_V40.scan!, misprintFamilies: true },
};

/**
 * Document engine 3.30 (`DOCUMENT_SETTINGS_V42`): 3.29 with one more band search once the best band
 * has not read, whose text mask drops small components instead of everything a 2×2 opening erases,
 * so that print with one-pixel strokes at the working size forms lines (`scan.thinSearch`)
 * (engine/document/README.md "Document engine 3.30").
 */
export const DOCUMENT_SETTINGS_V42: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V41,
  version: 'document-engine@3.30.0',
  scan: { ...DOCUMENT_SETTINGS_V41.scan!, thinSearch: true },
};

/**
 * Document engine 3.31 (`DOCUMENT_SETTINGS_V43`): 3.30 with the cheap reader families first
 * (`scan.recFirst`): the MRZ recogniser reads a band before tesseract, a valid read of it that the
 * glyph reader prints alike settles the band without a tesseract read, and bands the recogniser reads
 * nothing in (after the best one) are read after the others (engine/document/README.md "Document
 * engine 3.31").
 */
export const DOCUMENT_SETTINGS_V43: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V42,
  version: 'document-engine@3.31.0',
  scan: { ...DOCUMENT_SETTINGS_V42.scan!, recFirst: true },
};

/**
 * Document engine 3.32 (`DOCUMENT_SETTINGS_V44`): 3.31 with the learned readers' name-line agreement
 * held against a filler they both dropped (`scan.fillerDissent`; engine/document/README.md "Document
 * engine 3.32").
 */
export const DOCUMENT_SETTINGS_V44: TDocumentEngineSettings = {
  ...DOCUMENT_SETTINGS_V43,
  version: 'document-engine@3.32.0',
  scan: { ...DOCUMENT_SETTINGS_V43.scan!, fillerDissent: true },
};

/** Every released settings version by its short name (`--settings vN` of the bench and the CLI). */
export const DOCUMENT_SETTINGS_BY_NAME: Readonly<Record<string, TDocumentEngineSettings>> = {
  v2: DOCUMENT_SETTINGS_V2, v3: DOCUMENT_SETTINGS_V3, v4: DOCUMENT_SETTINGS_V4, v5: DOCUMENT_SETTINGS_V5, v6: DOCUMENT_SETTINGS_V6, v7: DOCUMENT_SETTINGS_V7, v8: DOCUMENT_SETTINGS_V8,
  v9: DOCUMENT_SETTINGS_V9, v10: DOCUMENT_SETTINGS_V10, v11: DOCUMENT_SETTINGS_V11, v12: DOCUMENT_SETTINGS_V12, v13: DOCUMENT_SETTINGS_V13, v14: DOCUMENT_SETTINGS_V14, v15: DOCUMENT_SETTINGS_V15, v16: DOCUMENT_SETTINGS_V16, v17: DOCUMENT_SETTINGS_V17, v18: DOCUMENT_SETTINGS_V18, v19: DOCUMENT_SETTINGS_V19, v20: DOCUMENT_SETTINGS_V20, v21: DOCUMENT_SETTINGS_V21, v22: DOCUMENT_SETTINGS_V22, v23: DOCUMENT_SETTINGS_V23, v24: DOCUMENT_SETTINGS_V24, v25: DOCUMENT_SETTINGS_V25, v26: DOCUMENT_SETTINGS_V26, v27: DOCUMENT_SETTINGS_V27, v28: DOCUMENT_SETTINGS_V28, v29: DOCUMENT_SETTINGS_V29, v30: DOCUMENT_SETTINGS_V30, v31: DOCUMENT_SETTINGS_V31, v32: DOCUMENT_SETTINGS_V32, v33: DOCUMENT_SETTINGS_V33, v34: DOCUMENT_SETTINGS_V34, v35: DOCUMENT_SETTINGS_V35, v36: DOCUMENT_SETTINGS_V36, v37: DOCUMENT_SETTINGS_V37, v38: DOCUMENT_SETTINGS_V38, v39: DOCUMENT_SETTINGS_V39, v40: DOCUMENT_SETTINGS_V40, v41: DOCUMENT_SETTINGS_V41, v42: DOCUMENT_SETTINGS_V42, v43: DOCUMENT_SETTINGS_V43, v44: DOCUMENT_SETTINGS_V44,
};

export function resolveSettings(overrides?: DocumentEngineSettings): TDocumentEngineSettings {
  return ZDocumentEngineSettings.parse({ ...DEFAULT_DOCUMENT_SETTINGS, ...overrides });
}
