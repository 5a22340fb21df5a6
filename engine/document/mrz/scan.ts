import { states } from 'mrz';
import sharp from 'sharp';
import { mrzReadParams, type OcrLine, type OcrWorker } from '../ocr/workers.js';
import type { GlyphReader } from './glyphs.js';
import type { MrzLineRecognizer } from './mrzrec.js';
import type { LineRecognizer } from './rec.js';
import { fineWorkSide, locateMrzBands, sameBand, type LineFinder, type LocateOptions, type MrzBand } from './locate.js';
import { longNumberTail, parseMrz, type MrzCheck, type MrzFormat, type ParsedMrz } from './parse.js';
import { eitherClassAt, repairLines, type NationalFormats } from './repair.js';
import { bandLines, characterMask, distortion, rectifyBand, rectifyingQuad, type BandLine } from './rectify.js';
import { normaliseGrey } from './stretch.js';

/**
 * Reads the MRZ of a whole photo or scan (document engine 2.x): locate candidate bands anywhere
 * in the frame at any rotation (`locate.ts`), read each with the MRZ tesseract model (upright,
 * then turned 180° when the read makes no sense), fix letter/digit confusions where the field
 * type or a check digit decides, and confirm the name line, which no check digit covers, with a
 * second independent read. `valid` therefore means: every check digit holds, the structure is
 * sound, and two reads agree on the name line.
 */

export type MrzReason = 'mrz_not_found' | 'mrz_unreadable' | 'mrz_check_digits_failed';

export interface ScanAttempt { band: number; flipped: boolean; source: string; lines: string[] | null; checksOk: number; checks: number; ms: number }

export interface MrzScan {
  parsed: ParsedMrz | null;
  valid: boolean;
  /** Set whenever `valid` is false. */
  reason?: MrzReason;
  /** Per kept line, 0..1 (tesseract's line confidence; the lowest character margin for the glyph reader). */
  lineConfidence: number[];
  /** Lowest line confidence, halved when the name line could not be confirmed. */
  confidence: number;
  /** The second read agreed on the name line. */
  nameConfirmed: boolean;
  /** Characters changed because a check digit or the field type decided them. */
  corrections: number;
  band?: Omit<MrzBand, 'score'> & { flipped: boolean };
  attempts: ScanAttempt[];
  bandsFound: number;
  /** Where the scan's time went (`ScanStages`): a measure for benchmarks, not evidence (`analyze.ts` does not report it). */
  stageMs?: ScanStages;
}

/**
 * Wall milliseconds per stage of one scan, summed over the scan. The scan awaits one stage at a time,
 * so the stages do not overlap and their sum is at most the scan's time; the rest is interpretation,
 * voting and image decoding. `lines`: cutting a crop into its text lines for the line readers.
 */
export interface ScanStages { locate: number; crop: number; tesseract: number; glyph: number; lines: number; mrz: number; rec: number }

export interface ScanOptions {
  workSide: number;
  maxBands: number;
  timeoutMs: number;
  /** Line height (px) the band is scaled to before OCR. */
  lineHeightPx: number;
  /** Most tesseract reads per image. */
  maxReads?: number;
  plausible?: (p: ParsedMrz) => boolean;
  /** Line finder for the band search (default: classical morphology). */
  lines?: LineFinder;
  /**
   * 2.1: more reads of a band found the right way up but not read validly ('tall': another
   * scale; 'thin': strokes thinned; 'flat': background flattened), and a per-character vote
   * across that band's reads. Absent: 2.0 behaviour.
   */
  retry?: { variants: RetryVariant[]; vote: boolean; primary?: 'grey' | 'flat'; deskew?: boolean; knownStates?: boolean; flatWhenEmpty?: boolean; /** 3.17: bands under perspective made rectangles (`rectify.ts`). */ rectify?: boolean };
  /** 3.30: once the best band has not read, one more band search with one-pixel strokes kept (`locate.ts` `withoutSmallComponents`). */
  thinSearch?: boolean;
  /**
   * 3.31: the cheap reader families read a band before tesseract does. The MRZ recogniser reads it
   * first; a valid read of its that the glyph reader prints alike is the band's answer, as it is
   * under 3.30 after a tesseract read that does not pass (the same confirmation, made before the
   * tesseract read instead of after it). Among the bands of the first search and the searches after
   * it, a band other than the best one that the recogniser reads nothing MRZ-shaped in, upright or
   * turned, waits until the bands it does read something in have been read (not skipped: 3.23's
   * `recGate` skipped such bands and lost a document).
   */
  recFirst?: boolean;
  /** 2.2: also search at the angle of stacks of long lines tilted off the frame's text angle (`locate.ts`). */
  tilt?: boolean;
  /** 2.2: the OCR-B glyph reader (`readers.glyph`) confirms and votes with tesseract's reads. */
  glyphVote?: boolean;
  /** 2.3 (an experiment under 2.2): glyph reads vote and confirm but never veto (`voteReads`' `weak`). */
  glyphWeak?: boolean;
  /** 2.2: the 180° read cuts the band first and then turns it (2.0/2.1 cut the mirrored region: `bandCropper`). */
  exactFlip?: boolean;
  /**
   * 2.3: the grey image the band search and the reads see. 'value' is each pixel's brightest
   * channel (HSV value): black MRZ ink stays dark in every channel, while a pale tint or a printed
   * security pattern is bright in at least one, so coloured backgrounds wash out. 'auto': the band
   * search runs on luma and each band is read from whichever of the two separates its ink from its
   * paper better (Otsu separability, luma unless the other is clearly better). Absent: luma.
   */
  ink?: 'luma' | 'value' | 'auto';
  /** 2.3: a third join sized to the frame's character height for large print (`locate.ts`). */
  adaptiveJoin?: boolean;
  /** 2.3: how bands with small glyphs are enlarged for the reads (`bandCropper`). */
  upscale?: UpscaleOptions;
  /** 2.4: a bounded cost for enlarged (small-glyph) bands that cannot be read (`EnlargedBandBounds`). */
  enlargedBand?: EnlargedBandBounds;
  /**
   * 2.5: stop a band (both turns) as soon as two of its tesseract reads are valid and print
   * different lines. 2.1's rule already makes such a band unreadable, but only after a further
   * read (`retryBand`), and 2.0's confirmation lets a third read side with the first. On enlarged
   * small print ('enlarged': bands under `upscale.belowPx`) two reads that pass every check and
   * disagree (mostly on the name line, which no check digit covers) mean the print is below what
   * the model resolves, and the reads still to come are the costliest. 'all' applies it to every
   * band: measured on the tuning copies, it lost a blurred copy that 2.0's 2:1 confirmation reads
   * right (`MICHAEL`, `BICHAEL`, `MICHAEL`), so 2.5 keeps that confirmation for normal print.
   */
  conflictStop?: 'enlarged' | 'all';
  /**
   * 2.5: when no read was confirmed, the scan's reason is `mrz_unreadable`. 2.0–2.4 reported the
   * best unconfirmed read as `mrz_check_digits_failed` whenever its structure was sound, even when
   * all its check digits held or a lone misread broke one; that reason is kept for a check digit
   * that fails in two agreeing reads (a misprint or an edit).
   */
  honestReason?: boolean;
  /**
   * 2.5: when neither the text-angle nor the quarter-turn search finds any band, search once more
   * with the text mask's level at this fraction of Otsu's (`locate.ts` `textMask`). Bold dark print
   * elsewhere in the frame (a vendor overlay, a large caption) can set Otsu's level above a pale
   * MRZ's thin strokes. Only frames with no band at all pay for it.
   */
  faintSearch?: number;
  /**
   * 2.6: thin straight lines drawn over the MRZ (a focus crosshair, an illustration's outline) are
   * taken out of the band search's text mask ('mask': `stripMaskLines`), and with 'crops' also out
   * of every crop of a band before it is read (`removeOverlayLines`). A mask or crop with no such
   * line is used unchanged.
   */
  overlayLines?: 'mask' | 'crops';
  /** 2.6: a band whose read is one MRZ-like line of TD3 width is grown about two lines each way and read once more (`loneMrzLine`). */
  growLone?: boolean;
  /**
   * 2.7: each line is grown through its filler gaps before lines are paired into a band
   * (`locateMrzBands`' `extendFirst`): widely spaced fillers cut a name line short, and a cut line
   * failed the pairing's width test, so the band was never formed.
   */
  extendFirst?: boolean;
  /**
   * 2.8: reads are fitted to the MRZ's grid before they are judged: a stray mark before the
   * document code or after the name line's last filler run is not kept (`trimLineEdges`), and a
   * read that fails is tried with its fillers rearranged under the check digits (`realignFillers`).
   */
  lineRepair?: boolean;
  /**
   * 2.8: a band read that shows MRZ fillers but not the lines of any MRZ is read again one text
   * line at a time (`splitTextLines`): tesseract's own line finding merges a printed rule between
   * the lines (an old German ID card) or a line's ragged end with its neighbour.
   */
  splitLines?: boolean;
  /**
   * 2.9: the learned line recogniser (`readers.rec`, `rec.ts`) reads the band's first crop line by
   * line. A tesseract read it prints identically is confirmed; in the vote it counts like the glyph
   * reader (votes and agrees, never vetoes). It never stands alone.
   */
  lineRec?: boolean;
  /**
   * 3.0: the project's own MRZ recogniser (`readers.mrz`, `mrzrec.ts`) reads the band's first crop
   * line by line. Where tesseract's first read does not pass its check digits and the recogniser's
   * does, the recogniser's read is the band's first read, and it needs a second, independent read
   * (glyph reader, tesseract, PP-OCRv4) printing the same lines, as any first read does. Where
   * tesseract's first read passes, the recogniser confirms it like the glyph reader, and votes
   * without a veto. Its value names the model (file and sha256), which the engine loads.
   */
  mrzRec?: { model: string; sha256: string };
  /**
   * 3.0: two tesseract reads of one band (different preprocessing, one model) can make the same
   * misread that passes a check digit (tuning, a scan scaled to 0.22: `990Q7Z99` for `99002299` in
   * two reads). Their agreement confirms a read only when the MRZ recogniser, another family, does
   * not read the band otherwise in the same format. Confirmations that involve another family
   * (glyph reader, PP-OCRv4, the MRZ recogniser) are unchanged.
   */
  mrzVeto?: boolean;
  /**
   * 3.3: the recogniser's read vetoes only when it passes at least this many of its own check digits.
   * Measured reason: mrz-rec-3 read a degraded synthetic passport's data line with a character dropped
   * (no check digit passed) and so refused two tesseract reads that agreed on the printed MRZ.
   */
  mrzVetoMinChecks?: number;
  /**
   * 3.4: the MRZ recogniser's read with `<` at the composite check digit, which ICAO 9303 never
   * prints as a filler, takes that digit as unread (an erasure) and completes it from the data
   * (`completeComposite`). The composite then proves nothing for that read, so it still needs a
   * read of another family printing the same lines, digit included, before it is valid. Measured
   * reason: mrz-rec-3 reads the digit after a long filler run as one more filler (a tuning ID card at x0.3).
   */
  mrzCompositeErasure?: boolean;
  /**
   * 3.5: a character a check-digit-guided swap chose (`correctByCheckDigits`: the one confusable swap
   * under which every check digit holds) is a guess, as a type repair in a name is: two reads confirm
   * a version only if at least one of them printed each such character as it stands, and a chosen
   * character does not vote. Measured reason: on the tuning and stress sets the swap chose wrong 5 of
   * 7 times, cancelling an error elsewhere in the field (`990Q7Z99` for `99002299`), and two reads of
   * one family make the same error and the same swap.
   */
  swapAsRead?: boolean;
  /**
   * 3.6: a read is valid only if the fields ICAO fixes for every document and no check digit covers
   * fit (`icaoFieldsFit`: the document code's first letter for the read's family, the sex letter).
   * A Case's template already asks as much (templates/rules.ts `plausibleMrz`); the scan without a
   * template did not. Measured reason: of the single reads on the tuning images that pass every
   * check digit and are wrong, some are a passport with its filler runs cut short read as a TD2
   * (`PM`), a card's `I` read as `L`, an `F` read as `T` (`npm run bench:mrz-reads`).
   */
  icaoFields?: boolean;
  /**
   * 3.7: when the best band's reads are not valid, one more band search across the dominant text
   * (its angle turned a quarter). Its most MRZ-like band is read next if no band left to read is as
   * MRZ-like, else last. A data page photographed a quarter turn off has its upper page's print along
   * the frame's rows and its MRZ across them: 2.x searched the text angle and the rows, both the
   * wrong way, spent its read budget on their bands and never reached the quarter-turn search.
   */
  acrossText?: boolean;
  /**
   * 3.8: the faint search (`faintSearch`) also runs when every band found is a single blob
   * (`lines` 0: no two text lines stacked) and nothing read valid, not only when no band was found.
   * Seen first in capture advice: on clean synthetic passport photos the whole-frame search found only
   * one-line captions, read them, and never searched faint print, where the MRZ is.
   */
  faintUnlessStack?: boolean;
  /**
   * 3.9 (measured, in no profile: engine/document/README.md "Document engine 3.9"): when the best band's reads are not valid, one band search on each pixel's brightest
   * channel (needs `ink: 'auto'`), where coloured marks over the MRZ (a drawn ellipse, a highlight bar)
   * turn light and black ink stays dark. Its best stacked band, if new, is placed as 3.7 places the band
   * across the text (next if more MRZ-like than every band left, else last) and is cut from the brightest
   * channel (`MrzBand.ink`).
   */
  inkSearch?: boolean;
  /**
   * 3.12: the band search at the frame's second text direction (`textAngles`) when the best band's
   * reads are not valid; its most MRZ-like band is placed as 3.7 places the band across the text.
   * When the first search found no band, it runs last, after the quarter-turn and faint searches, if
   * nothing read valid. Seen on the tuning side: a passport on a desk turned −20°, whose text a
   * ruler's ticks and a cable outweighed; no band was found at the ruler's angle, across it, on the
   * straight frame or in faint print.
   */
  secondText?: boolean;
  /**
   * 3.12: a merged band whose rows hold two or three lines ranks as a stack (`locate.ts` `splitMerged`).
   * Seen on the tuning side: a textured Czech specimen turned −20°, its MRZ lines bridged by the
   * security print, ranked below two stacks of captions, which spent the read budget.
   */
  splitMerged?: boolean;
  /**
   * 3.12: a band formed at more than one of the band search's joins ranks by its best score
   * (`locate.ts` `bestJoin`). Seen on the tuning side: a Czech specimen's MRZ paired at the first
   * join only where its lines' right halves met, grown to full width, and kept that partial pairing's
   * score, below a stack of two caption lines.
   */
  bestJoin?: boolean;
  /**
   * 3.13 (with `blindTwins`): `8` and `S` are check-blind twins too (S = 28, worth 8 to every check
   * digit), so agreeing tesseract reads confirm neither in the number or optional data unless another
   * family's read prints it alike. 3.10 listed the look-alikes of `CONFUSABLE`, which has `8`/`B`
   * (B = 11, caught by the check digit) and not `8`/`S`.
   */
  blindEights?: boolean;
  /**
   * 3.18 (with `blindTwins`): a read of another family is a check-blind character's witness only
   * where its own narrowest check digit over that place holds (`narrowestCheck`; the composite only
   * when every check does), as 3.10's `vetoExcuse` lets a read veto only where its check holds.
   * Measured on tuning images made 6 px lines high (`bench:documents --line-px 6`): tesseract read the
   * last filler of a TD2 card's optional data as `0` (check-blind: `<` = 0), and the glyph reader,
   * its cells one out of step, printed `0` there too while its composite failed; the vote reported
   * the misread valid.
   */
  witnessChecks?: boolean;
  /**
   * 3.19: the MRZ recogniser's veto (3.0's `mrzVeto`, excused as 3.10's `vetoExcuse` says) holds
   * against the per-character vote too, where no read of another family prints the voted lines as a
   * whole. 3.0 let the recogniser vote without a veto, so tesseract's reads, outvoted by nothing but
   * the recogniser, could pass in the vote what the veto refuses them as a confirmation. Measured on
   * a real tuning scan made 8 px lines high under top perspective (`bench:documents --line-px 8
   * --keystone top`): three tesseract reads printed `AICHAEL` for `MICHAEL` in the name line, which
   * no check digit covers; the recogniser printed it right, and the vote reported the misread valid.
   * The objection is overruled where a third family (the glyph reader, PP-OCRv4) prints the vote at
   * every character the recogniser reads otherwise (`objectionOverruled`): at 6 px a UK specimen's
   * number, which the recogniser misread with its check digit holding, the glyph reader printed as
   * tesseract did.
   */
  voteVeto?: boolean;
  /**
   * 3.20: a band none of whose upright reads has an MRZ's shape is read the other way up by
   * tesseract only where the MRZ recogniser, at a fifth of a tesseract read's cost, reads an MRZ in
   * the turned crop. Bands of captions and security print above a passport's MRZ read as nothing
   * upright and nothing turned, and their turned reads spent the image's read budget before the scan
   * came to the MRZ: the synthetic passport pages read valid 115 -> 138 of 160 with it. An MRZ upside
   * down reads as MRZ-shaped garbage upright, so it is turned at once, as before.
   */
  turnSeen?: boolean;
  /**
   * 3.20: a band inside a band already read the right way up (most of its check digits passing), in
   * a read with as many lines as that band has text lines, is not read: its crop shows the same MRZ
   * lines, and that band's reads, retries and votes were already made over them. Held-out side: a
   * card's 2-line bands inside its 3-line MRZ band, read after the band's seven reads had settled
   * nothing, repeated the same read at the scan's highest cost.
   */
  innerSkip?: boolean;
  /**
   * 3.21: once the best band of the first search has not read (or the first search found none), the
   * band search runs once more on a working image this many times the size (`workSide` × it; frames
   * larger than that only, so that the finer copy is still a reduction), and its most MRZ-like band of
   * two or more lines not already found is read next if it outranks every band left. At the working size a photo of a whole page on a table has MRZ strokes a pixel or two thick;
   * the text mask's 2×2 opening breaks them and no line forms (synthetic passports photographed on a
   * table had no band on their MRZ at all, found at 1.4 times the size).
   */
  fineSearch?: number;
  /**
   * 3.22: the Russian internal passport's names keep the digits that its national encoding uses for
   * letters (`mrz/repair.ts` `repairLines`): `IM8REK` was repaired to `IMBREK`, which no read printed,
   * so no read of the page could confirm it and the scan spent its whole budget re-reading it.
   */
  russianNames?: boolean;
  /**
   * 3.22: a band's retries stop once three or more reads of it, by two or more reader families,
   * print the same lines and none prints others: no read under another preprocessing has changed
   * such a band's outcome (`settledBand`). It had read on to the budget: an MRZ whose dates are
   * impossible (a specimen's `000000`) or whose check digits were misprinted reads the same every
   * time, and was read seven times.
   */
  settledStop?: boolean;
  /**
   * 3.23: a band's tesseract reads are made only where the MRZ recogniser (about a twentieth of a
   * tesseract read's cost) reads an MRZ in it upright or turned; where it reads an MRZ turned only,
   * the upright tesseract read is skipped. Bands of captions, headings and security print read as
   * nothing by both, and their first tesseract reads were most of an unreadable image's cost.
   */
  recGate?: boolean;
  /**
   * 3.24: two lines of 36 that begin `IDFRA` are typed as the French national identity card of
   * 1988–2021 prints them, not as TD2 (`mrz/repair.ts` `FRENCH_ID`): TD2's typing turned the card's
   * given names into digits where TD2 has dates, and no read of a clean print of the card was valid.
   */
  frenchId?: boolean;
  /**
   * 3.14: tesseract does not read a line again inverted when its first read of it is unsure
   * (`tessedit_do_invert` off). MRZ print is dark on light in every band this engine reads (a band
   * cut from the brightest channel is grey too), so the inverted read is a second pass over text
   * that has none to give; on bands of captions and security print, which are unsure by nature, it
   * cost about 40 % of a read (tuning crops: 880 -> 520 ms).
   */
  noInvert?: boolean;
  /**
   * 3.15 (with `familyMajority`): where the versions that pass every check digit differ in the name
   * line only, two reader families printing one of them as it stands are enough. Names carry no
   * check digit, so nothing else can settle them; a version printed alike by tesseract and the MRZ
   * recogniser is what `confirm` already accepts from a first read and one other read, and the
   * dissent is tesseract alone (its preprocessings share its errors). Seen on the tuning side: a
   * German substitute ID card's name read `MUSTERRANN` by two tesseract reads and `MUSTERMANN` by
   * two others and the recogniser; a Czech specimen turned -20 degrees with `SPEGIMEN` and
   * `SPECIHEN` from one tesseract read each against `SPECIMEN` from two and the recogniser.
   */
  nameMajority?: boolean;
  /**
   * 3.10: the MRZ recogniser's veto (`mrzVeto`) counts only where its read disagrees with the version
   * at a character that it has no reason to doubt: an uncovered one (names) or one whose narrowest
   * check digit holds in its own read. A disagreement inside a field whose check digit fails in the
   * recogniser's read is that read's own error and says nothing against the version. Measured
   * reason (synthetic corpus, a Mozambican ID card under perspective): six tesseract reads of every
   * preprocessing printed the card exactly and passed every check; the recogniser read one digit of
   * the number as `M`, failed its composite, and its veto left the card unreadable.
   */
  vetoExcuse?: boolean;
  /**
   * 3.10: two or more versions pass every check digit on a band (until now always unreadable). The
   * version most of the four reader families (tesseract, the glyph reader, the MRZ recogniser,
   * PP-OCRv4) print, each as it stands (no check-digit swap, uncovered characters as read), is valid
   * when every other version is printed by one family only and by fewer reads. Measured reason
   * (synthetic corpus, two Mozambican ID cards): one tesseract read printed a filler as `0` (both are
   * worth 0 to every check digit) while tesseract's other reads, the glyph reader, the recogniser
   * and PP-OCRv4 all printed the card exactly.
   */
  familyMajority?: boolean;
  /**
   * 3.10: characters no check digit can tell from a look-alike. `6`/`G`, `1`/`L` (look-alikes OCR
   * confuses, `CONFUSABLE`) and a filler `<` read as `0` or `K` (tesseract's and PP-OCRv4's usual
   * misreads of filler runs) are worth the same to every ICAO check digit (G = 16, L = 21, K = 20,
   * `<` = 0). Where a version's document number or optional data holds one of them, agreeing
   * tesseract reads confirm it only if a read of another family (the glyph reader, the MRZ recogniser,
   * PP-OCRv4) of that band prints each such character alike, however the rest of its read went:
   * tesseract's reads of one band under other preprocessings share its errors. Measured reason: the
   * one silent misread of the whole-frame synthetic scan, a Mexican passport number's `G` read as `6`
   * by two tesseract reads while the other families read nothing. A stricter rule (no version
   * confirmed by tesseract alone) was measured too and cost correct reads of turned tuning photos.
   */
  blindTwins?: boolean;
  /**
   * Experiment on 3.6 (measured, in no version; engine/document/README.md "Document engine 3.7"): the
   * full-resolution image a band is cut from is turned to the band's angle with this interpolator
   * instead of sharp `rotate`'s bilinear one (the same geometry; quarter turns resample nothing).
   */
  turnInterpolator?: TurnInterpolator;
  /**
   * 3.1: what an unreadable scan reports for review is the best-supported read: the MRZ recogniser's
   * read competes with tesseract's on check digits passed, and of two versions that both pass, the
   * one more reads print is reported rather than the first. Validity is unchanged.
   */
  reportBest?: boolean;
  /**
   * 3.11 (measured against 3.10): of versions passing every check digit that as many reads print, the
   * one reported for review is the one whose lines more reader families print, counting every read of
   * the band line by line, passing or not. Under 3.1 a tie kept the first read's version: tesseract's,
   * which reads first. Validity is unchanged. Measured reason (real and public tuning, the infrared
   * German specimen): tesseract's flattened read printed `MUSTERARANN` and a number with `O` and `A`
   * for `0` and `M` whose errors offset in the check digits; the MRZ recogniser printed the page
   * exactly, and PP-OCRv4 printed its name line alike.
   */
  reportFamilies?: boolean;
  /**
   * 3.25: an unreadable band's reported read takes, at each place no check digit covers, the character
   * most reader families print there among the reads aligned with it (`uncoveredVote`), so that reads
   * that each miss a different letter of a name report it whole. Only what is reported for review
   * changes: the scan never votes uncovered characters piecemeal into a valid read (2.1).
   */
  reportVote?: boolean;
  /**
   * 3.26: of the reads an unreadable scan may report for review, one that can be an MRZ of its format
   * (dates that exist, the alphabet only, a document code, known states and ICAO's fixed fields where
   * the settings ask: what `valid` asks besides the check digits) ranks above one that cannot, before
   * check digits passed are counted. Measured reason (public tuning, the Japanese specimen turned 90°,
   * checks failing as printed): the read reported was a 180°-turned read of `3`s and `O`s, an impossible
   * birth date, that passed two check digits by chance, over the exact read of two reader families that
   * passed one. Validity is unchanged.
   */
  reportSound?: boolean;
  /**
   * 3.27 (with 3.10's `familyMajority`): check-valid versions of a band that differ anywhere are settled
   * by two reader families printing one of them as it stands, as 3.15 settles a name line, when every
   * other version is printed only by reads of a family that also prints that one: the family
   * contradicts itself, and the dissent has no family of its own. Measured reason (public tuning, a
   * French passport specimen under UV light): tesseract's grey read printed the number `BPRF22165`
   * for `60RF22165` (B for 6 and P for 0 offset each other in the check digit), its flattened read and
   * the MRZ recogniser printed the document exactly, and the band was left unreadable.
   */
  dividedDissent?: boolean;
  /**
   * 3.32: a name-line version that two families settle by 3.15's name majority (or 3.27's divided
   * dissent) does not settle when those two are the learned line readers (the MRZ recogniser and
   * PP-OCRv4) and a read by tesseract or the glyph reader prints the name line with one filler more
   * or fewer (`fillerShift`). The two learned readers read the same line crops (`firstCropLines`)
   * and share a CTC decoder's failure: in small print they drop a narrow `<` between letters or
   * collapse `<<` into `<`. No check digit covers the name line, so their agreement there is one
   * witness, not two (public tuning, a Qatari passport at 6 px under `--keystone right`: both printed
   * `P<QATALKAABI` for `P<QATAL<KAABI`, tesseract's binary read printed the filler, and 3.31 reported
   * the learned version valid).
   */
  fillerDissent?: boolean;
  /**
   * 3.29: a band's first read whose structure is sound but most of whose check digits fail, printed
   * line for line by another reader family (the glyph reader or the MRZ recogniser), is the MRZ as
   * printed: a template's dummy numbers, a misprint or an edit. It is reported at once as
   * `mrz_check_digits_failed` (never valid) instead of reading every other band and turn to the budget
   * and reporting `mrz_unreadable`. 2.5 already did so for one failing check digit confirmed by any
   * second read; with most failing, only another family's identical read counts (two tesseract
   * preprocessings share their errors). Also, a band 3.22 settled (`settledStop`) on a read that fails a
   * check digit reports `mrz_check_digits_failed`; that read stays unconfirmed.
   */
  misprintFamilies?: boolean;
}

/**
 * 2.4: enlarged bands (lines under `upscale.belowPx`) cost several times a normal band per read,
 * and on print too small to resolve no two reads agree, so 2.3 spent the whole image budget on
 * them. `maxReads`: tesseract reads per enlarged band (both turns together). `stopApart`: stop
 * the band as soon as two of its reads (same turn), none of them valid, have no MRZ line in
 * common and no field whose check digit holds in both with the same value (reads with no MRZ
 * shape are not counted): confirmation needs
 * two identical reads and the vote two reads printing the name line alike, so two reads that share
 * nothing mean the print is below what the model resolves. `keepTurn`: when a band was read the
 * right way up (most check digits right) the quarter-turned frames are not searched afterwards.
 */
export interface EnlargedBandBounds {
  maxReads: number; stopApart: boolean; keepTurn: boolean;
  /**
   * 2.6: tesseract reads on enlarged bands per image, all bands together. A picture of two small
   * cards (or one card whose print is too small) has several enlarged bands, each allowed
   * `maxReads`; their reads cost several normal reads each, and 2.5 spent 9 of them (2.8 s CPU) on
   * one such picture without a valid read. Absent: no image-wide bound.
   */
  imageReads?: number;
}

/**
 * 2.3: bands whose lines are under `belowPx` high are enlarged with a Lanczos-3 kernel (2.0–2.2:
 * cubic), after a Gaussian blur of `preBlur` source pixels that melts JPEG blocks and pixel steps
 * into the smooth strokes the MRZ model was trained on, to `lineHeightPx` lines.
 */
export interface UpscaleOptions { belowPx: number; lineHeightPx: number; preBlur: number }

/**
 * 2.1: the issuing state and nationality are codes ICAO lists (or `D` padded, or the specimen
 * `UTO`). No check digit covers them; a stray character before the document code shifts line 1
 * so that a read can pass every check digit with a state such as `<CZ`.
 */
export function statesKnown(p: ParsedMrz): boolean {
  const known = (c: string) => { const t = c.replace(/<+$/, ''); return t in states || t === 'UTO'; };
  return known(p.issuingState) && (p.nationality === undefined || p.nationality === '' || known(p.nationality));
}

/**
 * 3.6: the fields ICAO 9303 fixes for every document that no check digit covers. The document
 * code's first letter by family: TD1 and TD2 A, C or I, with any second letter but V
 * (DOCUMENT_FACTS I-10); a passport (TD3) P (I-14); a visa V (Part 7); the French 2×36 card is ID
 * by construction. The sex letter: F, M or `<` (I-18), X, which some issuers print for an
 * unspecified sex, and H only on Mexican documents (the INE card writes H/M; DOCUMENT_FACTS, INE
 * line 2 position 8).
 */
export function icaoFieldsFit(p: ParsedMrz): boolean {
  const c = p.documentCode;
  const code = p.kind === 'TD3' ? c[0] === 'P'
    : p.kind === 'MRV-A' || p.kind === 'MRV-B' ? c[0] === 'V'
      : p.kind === 'FR-ID' || (/^[ACI]/.test(c) && c[1] !== 'V');
  return code && (['F', 'M', '<', 'X'].includes(p.sex) || (p.sex === 'H' && p.issuingState === 'MEX'));
}

/**
 * What makes a read plausible in a scan: the caller's rule (a Case's template), and where the
 * settings ask, ICAO state codes (2.1 `retry.knownStates`) and ICAO's fixed fields (3.6
 * `icaoFields`). The caller's own rule, unchanged, when they ask for neither.
 */
export function scanPlausible(options: Pick<ScanOptions, 'plausible' | 'retry' | 'icaoFields'>): ((p: ParsedMrz) => boolean) | undefined {
  const outer = options.plausible;
  if (!options.retry?.knownStates && !options.icaoFields) return outer;
  const states = !!options.retry?.knownStates;
  const fields = !!options.icaoFields;
  return (p) => (!states || statesKnown(p)) && (!fields || icaoFieldsFit(p)) && (!outer || outer(p));
}

/** sharp's interpolators sharper than bilinear that `bandCropper` may turn with (an experiment on 3.6). */
export type TurnInterpolator = 'bicubic' | 'locallyBoundedBicubic' | 'nohalo';

export type RetryVariant = 'tall' | 'thin' | 'flat' | 'grey';
export type CropVariant = 'grey' | 'binary' | 'small' | RetryVariant;

export interface ScanReaders { tesseract: OcrWorker; glyph?: GlyphReader; glyphPitchPx?: number; /** 2.9 (`lineRec`): the learned line recogniser. */ rec?: LineRecognizer; /** 3.0 (`mrzRec`): the project's MRZ recogniser. */ mrz?: MrzLineRecognizer }

const WIDTHS: Record<MrzFormat, number> = { TD1: 30, TD2: 36, TD3: 44 };
const COUNTS: Record<MrzFormat, number> = { TD1: 3, TD2: 2, TD3: 2 };
const NAME_LINE: Record<MrzFormat, number> = { TD1: 2, TD2: 0, TD3: 0 };

const norm = (l: string) => l.toUpperCase().replace(/[«‹]/g, '<').replace(/\s+/g, '').replace(/[^A-Z0-9<]/g, '');

/** Fits a raw line to `width`: the filler run nearest the end absorbs extra or missing `<`. */
function fit(l: string, width: number): string {
  if (l.length === width) return l;
  if (l.length > width) {
    const extra = l.length - width;
    const m = /<{2,}(?=[^<]*$)/.exec(l);
    if (m && m[0].length > extra) return l.slice(0, m.index) + '<'.repeat(m[0].length - extra) + l.slice(m.index + m[0].length);
    return l.slice(0, width);
  }
  const m = /<+(?=[^<]{0,3}$)/.exec(l);
  if (m) return l.slice(0, m.index) + '<'.repeat(m[0].length + width - l.length) + l.slice(m.index + m[0].length);
  return l.padEnd(width, '<');
}

/** OCR lines → the MRZ lines of the format their lengths say (last `count` lines that fit). */
export function mrzLinesFromOcr(raw: OcrLine[], lineRepair = false): { format: MrzFormat; lines: string[]; confidences: number[]; texts: string[] } | null {
  const cand = raw.map((l) => ({ text: norm(l.text), confidence: l.confidence / 100 })).filter((l) => l.text.length >= 24 && l.text.length <= 50);
  if (cand.length < 2) return null;
  // The format whose width fits most candidate lines (ties: more lines first, TD1 needs three).
  let best: { format: MrzFormat; n: number } | null = null;
  for (const format of ['TD3', 'TD1', 'TD2'] as MrzFormat[]) {
    const w = WIDTHS[format];
    const n = cand.filter((l) => Math.abs(l.text.length - w) <= Math.max(2, w * 0.1)).length;
    if (n >= COUNTS[format] && (!best || n > best.n)) best = { format, n };
  }
  if (!best) return null;
  const w = WIDTHS[best.format];
  const kept = cand.filter((l) => Math.abs(l.text.length - w) <= Math.max(2, w * 0.1)).slice(-COUNTS[best.format]);
  const texts = lineRepair ? trimLineEdges(kept.map((l) => l.text), best.format) : kept.map((l) => l.text);
  return { format: best.format, lines: texts.map((t) => fit(t, w)), confidences: kept.map((l) => l.confidence), texts };
}

/** The start of every MRZ's first line: a document code (A, C, I, P or V, then a letter or `<`) and a state of letters or `<`. */
const DOC_CODE_START = /^[ACIPV][A-Z<][A-Z<]{3}/;

/**
 * 2.8 (`lineRepair`): marks outside the MRZ's grid read as characters. Every MRZ's first line
 * begins with its document code; a read of that line that is too long and only begins like one
 * after its first one or two characters carries a stray mark (a page edge, a guilloche wave) in
 * front, which `fit` would otherwise keep while dropping a filler at the far end, shifting the
 * code and the state. And the name field is left-justified: after three fillers (one more than
 * the `<<` between primary and secondary identifiers) only fillers follow (ICAO 9303-3 4.6), so
 * one or two characters after such a run at the end of the name line are a mark past the last
 * filler, not a name. Both are segmentation, not a guess at a character: the characters kept
 * are the read's own.
 */
export function trimLineEdges(texts: string[], format: MrzFormat): string[] {
  const out = [...texts];
  const w = WIDTHS[format];
  const first = out[0]!;
  if (!DOC_CODE_START.test(first)) {
    for (let k = 1; k <= Math.min(2, first.length - w); k++) {
      if (DOC_CODE_START.test(first.slice(k))) { out[0] = first.slice(k); break; }
    }
  }
  const ni = NAME_LINE[format];
  out[ni] = out[ni]!.replace(/(<{3,})[A-Z0-9]{1,2}$/, '$1');
  return out;
}

/** Every way of adding (`d` > 0) or removing (`d` < 0) `d` fillers across a line's filler runs, at most `cap` of them. */
function fillerVariants(line: string, d: number, cap: number): string[] | null {
  const runs: [number, number][] = [];
  for (const m of line.matchAll(/<+/g)) runs.push([m.index, m[0].length]);
  if (!runs.length || Math.abs(d) > 10) return null;
  const out: string[] = [];
  const build = (deltas: number[]) => {
    let s = '', at = 0;
    runs.forEach(([i, n], k) => { s += line.slice(at, i) + '<'.repeat(n + deltas[k]!); at = i + n; });
    return s + line.slice(at);
  };
  const walk = (k: number, left: number, deltas: number[]): boolean => {
    if (out.length > cap) return false;
    if (k === runs.length - 1) {
      const last = d > 0 ? left : -left;
      if (runs[k]![1] + last < 0) return true;
      out.push(build([...deltas, last]));
      return true;
    }
    for (let x = 0; x <= left; x++) {
      const delta = d > 0 ? x : -x;
      if (runs[k]![1] + delta < 0) break;
      if (!walk(k + 1, left - x, [...deltas, delta])) return false;
    }
    return true;
  };
  return walk(0, Math.abs(d), []) ? out : null;
}

/**
 * A data line's possible printed forms: as read, and with one or two characters dropped at either
 * end (a card's or page's edge beside the MRZ reads as `C`, `I` or `[`), each with its fillers
 * rearranged to the format's width. The check digits choose among them (`realignFillers`).
 */
function dataLineOptions(t: string, w: number): string[] {
  const out = new Set<string>();
  for (let lead = 0; lead <= 2; lead++) {
    for (let trail = 0; trail <= 2; trail++) {
      const cut = t.slice(lead, t.length - trail);
      // Drop edge characters only from a line read too long: a line of the right width has none.
      if (lead + trail > Math.max(0, t.length - w)) continue;
      if (cut.length === w) { out.add(cut); continue; }
      for (const v of fillerVariants(cut, w - cut.length, 200) ?? []) out.add(v);
    }
  }
  return [...out];
}

/**
 * 2.8 (`lineRepair`): the number of `<` in a run is what OCR gets wrong most easily (thin or
 * faint fillers drop out, a wide gap reads as one more), and `fit` can only put the whole
 * difference into the run nearest the line's end. When a read fails, its data lines are tried
 * with the missing or extra fillers in every place a filler run allows, under every format of its
 * line count (a TD3 whose optional data lost eight fillers reads 36 wide, like TD2); the name
 * line keeps `fit`'s end-of-line rule (moving fillers inside a name would change the name, and no
 * check digit covers it). Kept only when exactly one arrangement passes every check digit and the
 * structure rules: a position error under the check digits fails them, so a unique arrangement
 * that passes is the printed one.
 */
function realignFillers(texts: string[], confidences: number[], plausible?: (p: ParsedMrz) => boolean, national: NationalFormats = {}): Interpreted | null {
  const formats = (['TD3', 'TD2', 'TD1'] as MrzFormat[]).filter((f) => COUNTS[f] === texts.length);
  const found = new Map<string, Interpreted>();
  for (const format of formats) {
    const w = WIDTHS[format];
    const options: string[][] = [];
    for (let li = 0; li < texts.length; li++) {
      const t = texts[li]!;
      if (li === NAME_LINE[format]) { options.push([fit(t, w)]); continue; }
      const v = dataLineOptions(t, w);
      if (!v.length) { options.push([]); break; }
      options.push(v);
    }
    if (options.length !== texts.length || options.some((o) => !o.length)) continue;
    let combos: string[][] = [[]];
    for (const o of options) combos = combos.flatMap((c) => o.map((x) => [...c, x]));
    if (combos.length > 400) continue;
    for (const lines of combos) {
      const typed = repairLines(lines, format, national);
      const fixed = correctByCheckDigits(typed, format, true, !!national.frenchId);
      const parsed = parseMrz(fixed.lines, { extended: true });
      if (!parsed || !parsed.checkDigitsValid || !soundParse(parsed, plausible)) continue;
      const corrections = typed.reduce((n, l, i) => n + [...l].filter((c, k) => c !== lines[i]![k]).length, 0) + fixed.changes;
      found.set(fixed.lines.join('|'), { format, lines: fixed.lines, rawLines: lines, parsed, confidences, corrections, valid: true, checksOk: parsed.checks.filter((c) => c.ok).length, guessed: guessedAt(typed, fixed.lines) });
    }
  }
  return found.size === 1 ? [...found.values()][0]! : null;
}

const CONFUSABLE: Record<string, string[]> = {
  '0': ['O', 'D', 'Q'], O: ['0', 'D', 'Q'], D: ['0', 'O'], Q: ['0', 'O'], '1': ['I', 'L', 'T'], I: ['1', 'L'], L: ['1', 'I'], T: ['1'],
  '5': ['S'], S: ['5'], '8': ['B'], B: ['8'], '2': ['Z'], Z: ['2'], '6': ['G'], G: ['6'], '4': ['A'], A: ['4'], '7': ['T'],
};

/**
 * Alphanumeric fields (document number, optional data) cannot be fixed by type: try each single
 * confusable swap and keep it only when exactly one swap makes the field's check digit and the
 * composite hold. Dates are digits only and were fixed by type already.
 */
function correctByCheckDigits(lines: string[], format: MrzFormat, extended: boolean, frenchId = false): { lines: string[]; changes: number } {
  const parsed = parseMrz(lines, { extended });
  if (!parsed || parsed.checkDigitsValid) return { lines, changes: 0 };
  // [line, start, end] of the alphanumeric fields whose check digit is at `end` (or a long number's).
  // The French card (`FR-ID`, only ever parsed from 2x36 lines starting IDFRA): its number (12) and
  // its department and office (line 1, covered by the composite only).
  const fields: [number, number, number][] = format === 'TD1' ? [[0, 5, 14], [0, 15, 29], [1, 18, 29]] : format === 'TD3' ? [[1, 0, 9], [1, 28, 42]] : parsed.kind === 'FR-ID' && frenchId ? [[1, 0, 12], [0, 30, 36]] : [[1, 0, 9], [1, 28, 35]];
  const good: string[][] = [];
  for (const [li, a, b] of fields) {
    for (let i = a; i < b; i++) {
      for (const alt of CONFUSABLE[lines[li]![i]!] ?? []) {
        const trial = lines.map((l, k) => (k === li ? l.slice(0, i) + alt + l.slice(i + 1) : l));
        const p = parseMrz(trial, { extended });
        if (p && p.checkDigitsValid && p.structureErrors.length === 0) good.push(trial);
      }
    }
  }
  return good.length === 1 ? { lines: good[0]!, changes: 1 } : { lines, changes: 0 };
}

export interface Interpreted {
  format: MrzFormat; lines: string[]; rawLines: string[]; parsed: ParsedMrz | null; confidences: number[]; corrections: number; valid: boolean; checksOk: number;
  /** Where a check-digit-guided swap (`correctByCheckDigits`) chose the character, as `line:column`. */
  guessed?: string[];
}

/** The positions where `fixed` differs from `typed`: the check-digit swap's choice, if any. */
function guessedAt(typed: string[], fixed: string[]): string[] {
  const out: string[] = [];
  fixed.forEach((l, li) => { for (let k = 0; k < l.length; k++) if (l[k] !== typed[li]![k]) out.push(`${li}:${k}`); });
  return out;
}

/**
 * 3.5 (`swapAsRead`): two reads of one version confirm each other only if no character of it was
 * chosen by a check-digit swap in both: such a character was printed by no read as it stands.
 */
export function sharedGuess(a: Interpreted, b: Interpreted): boolean {
  return !!a.guessed?.length && !!b.guessed?.some((g) => a.guessed!.includes(g));
}

/**
 * The characters no check digit covers: the name line (and TD1's document code and state). A
 * type-based repair there (8→B, 0→O) is a guess, not a proof: issuers print digits in names (a
 * Russian internal passport's `IM8REK`), so a read is confirmed only if some read printed these
 * characters as they stand, without repair.
 */
function uncovered(lines: string[], format: MrzFormat): string {
  return format === 'TD1' ? `${lines[0]!.slice(0, 5)}|${lines[2]}` : lines[0]!;
}

/**
 * 3.10 (`familyMajority`): a band's reads hold two or more versions that pass every check digit. The
 * version printed as it stands (no check-digit swap, uncovered characters as read) by most of the four
 * reader families (tesseract, the glyph reader, the MRZ recogniser, PP-OCRv4), at least three, is the
 * band's read when every other version is printed by one family only, by fewer reads. 3.15
 * (`nameMajority`): where every other version differs from it in the name line only, two families are
 * enough. `null`: the conflict stands.
 */
/**
 * 3.22 (`settledStop`): the band's reads leave nothing for one more read to settle: three or more,
 * by at least two reader families, every one printing the same lines in the same format.
 */
export function settledBand(pool: Interpreted[], familyOf: (x: Interpreted) => string): boolean {
  const reads = [...new Set(pool)];
  if (reads.length < 3) return false;
  const v = reads[0]!;
  return reads.every((x) => x.format === v.format && x.lines.join('|') === v.lines.join('|')) && new Set(reads.map(familyOf)).size >= 2;
}

/**
 * 3.32: one name line is the other with one filler `<` more, inside the name (trailing fillers,
 * which absorb the shift, aside): `P<QATAL<KAABI<<` against `P<QATALKAABI<<`, or `<<` against `<`.
 */
export function fillerShift(a: string, b: string): boolean {
  const [s, l] = [a.replace(/<+$/, ''), b.replace(/<+$/, '')].sort((x, y) => x.length - y.length) as [string, string];
  if (l.length !== s.length + 1) return false;
  for (let i = 1; i < l.length - 1; i++) if (l[i] === '<' && l.slice(0, i) + l.slice(i + 1) === s) return true;
  return false;
}

/** The learned line readers (3.0's MRZ recogniser, 2.9's PP-OCRv4): one CTC decoder's failures on the same line crops. */
const LEARNED_FAMILIES: ReadonlySet<string> = new Set(['mrz', 'rec']);

export function familyMajorityRead(pool: Interpreted[], familyOf: (x: Interpreted) => string, nameMajority = false, dividedDissent = false, fillerDissent = false): Interpreted | null {
  const versions = new Map<string, { reads: Interpreted[]; printed: Set<string> }>();
  for (const x of new Set(pool)) {
    if (!x.valid) continue;
    const e = versions.get(x.lines.join('|')) ?? { reads: [], printed: new Set<string>() };
    e.reads.push(x);
    if (!x.guessed?.length && uncovered(x.rawLines, x.format) === uncovered(x.lines, x.format)) e.printed.add(familyOf(x));
    versions.set(x.lines.join('|'), e);
  }
  if (versions.size < 2) return null;
  const [top, ...others] = [...versions.values()].sort((a, c) => c.printed.size - a.printed.size);
  const v = top!.reads[0]!;
  const nameOnly = nameMajority && others.every((o) => o.reads[0]!.format === v.format && o.reads[0]!.lines.every((l, li) => li === NAME_LINE[v.format] || l === v.lines[li]));
  // 3.27 (`dividedDissent`): every other version is printed only by a family that also prints the top
  // version as it stands: that family contradicts itself, and the dissent has no family of its own.
  const divided = dividedDissent && others.every((o) => o.reads.every((x) => top!.printed.has(familyOf(x))));
  if (top!.printed.size < (nameOnly || divided ? 2 : 3) || others.some((o) => new Set(o.reads.map(familyOf)).size > 1 || o.reads.length >= top!.reads.length)) return null;
  // 3.32 (`fillerDissent`): settled by the learned readers alone, against a read by another family
  // (valid or not: the name line has no check digit) printing the name with one filler more or fewer.
  if (fillerDissent && top!.printed.size < 3 && [...top!.printed].every((f) => LEARNED_FAMILIES.has(f))) {
    const ni = NAME_LINE[v.format];
    if ([...new Set(pool)].some((x) => x.format === v.format && !LEARNED_FAMILIES.has(familyOf(x)) && fillerShift(x.rawLines[ni]!, v.lines[ni]!))) return null;
  }
  return v;
}

export function interpret(raw: OcrLine[], plausible?: (p: ParsedMrz) => boolean, lineRepair = false, national: NationalFormats = {}): Interpreted | null {
  const got = mrzLinesFromOcr(raw, lineRepair);
  if (!got) return null;
  const typed = repairLines(got.lines, got.format, national);
  let corrections = typed.reduce((n, l, i) => n + [...l].filter((c, k) => c !== got.lines[i]![k]).length, 0);
  const fixed = correctByCheckDigits(typed, got.format, true, !!national.frenchId);
  corrections += fixed.changes;
  const parsed = parseMrz(fixed.lines, { extended: true });
  const valid = !!parsed && parsed.checkDigitsValid && soundParse(parsed, plausible);
  const read: Interpreted = { format: got.format, lines: fixed.lines, rawLines: got.lines, parsed, confidences: got.confidences, corrections, valid, checksOk: parsed ? parsed.checks.filter((c) => c.ok).length : 0, guessed: guessedAt(typed, fixed.lines) };
  if (valid || !lineRepair) return read;
  return realignFillers(got.texts, got.confidences, plausible, national) ?? read;
}

/**
 * O and 0 are one glyph in OCR-B (the glyph reader cannot tell them apart; `repairLines` settles
 * them where the position takes letters or digits only). In positions that take either (document
 * number, optional data, a check digit that may be `<`), the glyph read's O/0 choice is the
 * combination under which every check digit holds, when exactly one does; otherwise the digit
 * (the commoner in numbers, and the check-digit-guided swaps of `interpret` then see the read as
 * tesseract would print it). Glyph reads only: tesseract does tell them apart.
 */
export function resolveTwins(lines: string[], format: MrzFormat, national: NationalFormats = {}): string[] {
  if (lines.length !== COUNTS[format] || lines.some((l) => l.length !== WIDTHS[format])) return lines;
  // Only the free O/0 positions change: everything else is returned as read, NOT type-repaired,
  // because `interpret` keeps the read's own characters as `rawLines` and the confirmation rule
  // for the characters no check digit covers (names) needs them as printed (`IM8REK` stays `8`).
  const typed = repairLines(lines, format, national);
  // Positions that take either: the type repair turns neither O into 0 nor 0 into O there.
  const free = (li: number, k: number) => ['O', '0'].every((c) => repairLines(typed.map((x, i) => (i === li ? x.slice(0, k) + c + x.slice(k + 1) : x)), format, national)[li]![k] === c);
  const at: [number, number][] = [];
  typed.forEach((l, li) => { for (let k = 0; k < l.length; k++) if ((l[k] === 'O' || l[k] === '0') && free(li, k)) at.push([li, k]); });
  const put = (src: string[], pick: (j: number) => string) => src.map((l, li) => [...l].map((c, k) => { const j = at.findIndex(([a, b]) => a === li && b === k); return j < 0 ? c : pick(j); }).join(''));
  const digits = put(lines, () => '0');
  if (!at.length || at.length > 8) return digits;
  let found: string[] | null = null;
  for (let mask = 0; mask < 1 << at.length; mask++) {
    const pick = (j: number) => (mask & (1 << j) ? '0' : 'O');
    const p = parseMrz(put(typed, pick), { extended: true });
    if (p && p.checkDigitsValid && p.structureErrors.length === 0) {
      if (found) return digits;
      found = put(lines, pick);
    }
  }
  return found ?? digits;
}

/**
 * 3.4 (`mrzCompositeErasure`): a `<` at the composite check digit of a TD1, TD2 or TD3 (not a visa,
 * which has none) is an erasure, completed with the one digit under which the composite holds. Lines
 * of other widths, or without the filler there, are returned as they are.
 */
export function completeComposite(lines: string[], format: MrzFormat): string[] {
  if (lines.length !== COUNTS[format] || lines.some((l) => l.length !== WIDTHS[format]) || lines[0]![0] === 'V') return lines;
  const at = WIDTHS[format] - 1;
  if (lines[1]![at] !== '<') return lines;
  for (const d of '0123456789') {
    const trial = [lines[0]!, lines[1]!.slice(0, at) + d, ...lines.slice(2)];
    if (parseMrz(repairLines(trial, format), { extended: true })?.checks.find((c) => c.field === 'composite')?.ok) return trial;
  }
  return lines;
}

export type Raw = { data: Buffer; width: number; height: number; channels: 1 | 3 };

/**
 * Crops one band out of the image turned by the band's angle and scales it to `lineHeightPx`
 * lines for tesseract ('binary' and 'small' are the independent second reads). Turned images are
 * cached per angle, so several bands at one angle cost one rotation.
 */
/** 2.6: crops an overlay line was taken out of (`removeOverlayLines`): their reads do not show the characters as printed. */
const CLEANED = new WeakSet<Buffer>();
let cleanedSerial = 0;

/**
 * 2.6: a read of a cleaned crop keeps its lines but not its claim to have printed the characters
 * no check digit covers as they stand: its `rawLines` become a token no other read shares. The
 * confirmation and the vote need those characters printed alike by reads of unaltered crops,
 * because every crop of a band is cleaned alike and their misreads agree (tuning: a crosshair
 * through a UK passport's name line read `FUDARSANK<HENERT` in two cleaned reads).
 */
function markCleaned(r: Interpreted | null, cleaned: boolean): Interpreted | null {
  if (!r || !cleaned) return r;
  const token = `#${(cleanedSerial++).toString(36)}`;
  return { ...r, rawLines: r.lines.map((l) => token.padStart(l.length, '#')) };
}

/**
 * Crops and line cuts live only in memory, on their way to a reader that decodes them at once: the
 * PNG is a container, not storage. At zlib level 6 (sharp's default) encoding a crop cost about as
 * much as cutting it; the pixels every reader decodes are the same at any level.
 */
const CROP_PNG = { compressionLevel: 1 };

/**
 * A one-channel pipeline's pixels; with `stretched`, sharp's normalise() applied to them as sharp
 * applies it, after the pipeline's other steps (threshold, blur, sharpen all come first in sharp):
 * the same bytes as `.normalise()` in the pipeline, for about a third of its cost (`stretch.ts`).
 */
async function greyPixels(p: ReturnType<typeof sharp>, stretched: boolean): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await p.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data: stretched ? await normaliseGrey(data, info.width, info.height) : data, width: info.width, height: info.height };
}

export function bandCropper(img: Raw, lineHeightPx: number, flattenAll = false, deskew = false, exactFlip = false, upscale?: UpscaleOptions, inkAlt?: Raw, overlayLines = false, turnInterpolator?: TurnInterpolator, rectify = false): (b: MrzBand, flipped: boolean, variant: CropVariant, flattenBase?: boolean) => Promise<Buffer> {
  const turned = new Map<string, Promise<{ data: Buffer; width: number; height: number }>>();
  const turnedImage = (angle: number, src: Raw = img) => {
    const key = `${angle}:${src === img ? 0 : 1}`;
    if (!turned.has(key)) {
      const grey = sharp(src.data, { raw: { width: src.width, height: src.height, channels: src.channels } }).greyscale();
      const white = { background: { r: 255, g: 255, b: 255 } };
      // `turnInterpolator` (an experiment): the same turn as sharp's `rotate` (libvips computes the same output
      // box: with bilinear interpolation the two are byte for byte the same), sampled by a sharper kernel.
      const rad = (angle * Math.PI) / 180;
      const t = turnInterpolator && angle % 90 !== 0
        ? grey.affine([[Math.cos(rad), -Math.sin(rad)], [Math.sin(rad), Math.cos(rad)]], { ...white, interpolator: sharp.interpolators[turnInterpolator] })
        : grey.rotate(angle, white);
      turned.set(key, t.extractChannel(0).raw().toBuffer({ resolveWithObject: true })
        .then(({ data, info }) => ({ data, width: info.width, height: info.height })));
    }
    return turned.get(key)!;
  };
  /** 2.3 (`ink: 'auto'`): per band, the grey image (luma or brightest channel) that separates ink from paper better. */
  const chosen = new Map<string, Promise<{ data: Buffer; width: number; height: number }>>();
  const bandImage = (b: MrzBand) => {
    if (!inkAlt) return turnedImage(b.angle);
    // 3.9: a band found on the brightest channel is cut from it (luma holds the marks it was found without).
    if (b.ink === 'value') return turnedImage(b.angle, inkAlt);
    const key = `${b.angle}:${b.left}:${b.top}:${b.width}:${b.height}`;
    if (!chosen.has(key)) {
      chosen.set(key, (async () => {
        const [luma, alt] = await Promise.all([turnedImage(b.angle), turnedImage(b.angle, inkAlt)]);
        return separability(alt, b) > separability(luma, b) + INK_MARGIN ? alt : luma;
      })());
    }
    return chosen.get(key)!;
  };
  // The band's skew is the same for every crop of it (variant, turn and scale come after): measured once.
  const skews = new WeakMap<object, Map<string, Promise<number>>>();
  const skewOf = (t: { data: Buffer; width: number; height: number }, left: number, top: number, width: number, height: number): Promise<number> => {
    let m = skews.get(t);
    if (!m) skews.set(t, (m = new Map()));
    const key = `${left}:${top}:${width}:${height}`;
    if (!m.has(key)) m.set(key, bandSkew(t, left, top, width, height));
    return m.get(key)!;
  };
  const rectified = new Map<string, Promise<{ data: Buffer; width: number; height: number } | null>>();
  return async (b, flipped, variant, flattenBase) => {
    const flatten = flattenBase ?? flattenAll;
    const t = await bandImage(b);
    const left = Math.min(b.left, t.width - 1), top = Math.min(b.top, t.height - 1);
    const width = Math.max(1, Math.min(b.width, t.width - left)), height = Math.max(1, Math.min(b.height, t.height - top));
    const small = !!upscale && b.lineHeight < upscale.belowPx;
    const target = small ? upscale.lineHeightPx : lineHeightPx;
    // The 'small' read is the independent second scale. A band already enlarged from small glyphs
    // has nothing to gain from shrinking again (its 0.7× read printed stray characters on the tiny
    // tuning copies and vetoed a right first read), so its other scale is above, not below.
    const other = small ? 1.25 : 0.7;
    const f = Math.max(0.3, Math.min(small ? 6 : 4, (variant === 'small' ? other : variant === 'tall' ? 1.4 : 1) * target / b.lineHeight));
    // The crop so far as a buffer and a box: read again through a pipeline of its own, not `clone()`,
    // which copies the whole input buffer (the turned frame) with structuredClone.
    let from: { data: Buffer; width: number; height: number; box?: { left: number; top: number; width: number; height: number } } = { data: t.data, width: t.width, height: t.height, box: { left, top, width, height } };
    const fresh = () => {
      const p = sharp(from.data, { raw: { width: from.width, height: from.height, channels: 1 } });
      return from.box ? p.extract(from.box) : p;
    };
    let s = fresh();
    if (small && upscale.preBlur > 0) {
      // Blur at source scale before enlarging: sharp's blur runs after a resize in one pipeline.
      const { data, info } = await s.blur(Math.max(0.3, upscale.preBlur)).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
      from = { data, width: info.width, height: info.height };
      s = fresh();
    }
    // 2.1 (`deskew`): the band's own text angle. The frame's angle comes from all its text; under
    // perspective the MRZ lines run at another angle than the printed zone above them.
    const skew = deskew ? await skewOf(t, left, top, width, height) : 0;
    if (Math.abs(skew) >= 0.3) {
      const pad = Math.min(Math.round(height), Math.ceil(width * Math.tan((Math.abs(skew) * Math.PI) / 180) / 2) + 2);
      const top2 = Math.max(0, top - pad), bottom2 = Math.min(t.height, top + height + pad);
      const { data, info } = await sharp(t.data, { raw: { width: t.width, height: t.height, channels: 1 } })
        .extract({ left, top: top2, width, height: bottom2 - top2 }).rotate(-skew, { background: { r: 255, g: 255, b: 255 } })
        .extractChannel(0).raw().toBuffer({ resolveWithObject: true });
      // Keep the band's own rows about its centre (the rotation keeps the centre in the middle).
      const cy = (top + height / 2 - top2) - (bottom2 - top2) / 2 + info.height / 2;
      const y0 = Math.max(0, Math.round(cy - height / 2)), h2 = Math.min(info.height - y0, height);
      const x0 = Math.max(0, Math.round((info.width - width) / 2)), w2 = Math.min(info.width - x0, width);
      from = { data, width: info.width, height: info.height, box: { left: x0, top: y0, width: w2, height: h2 } };
      s = fresh();
    }
    // 3.17 (`rectify`): the band's lines made a rectangle again when a slanted view distorts them
    // (`rectify.ts`). Measured once per band: every variant, turn and scale is cut from the result.
    if (rectify) {
      const key = `${b.angle}:${b.left}:${b.top}:${b.width}:${b.height}:${b.ink ?? ''}`;
      if (!rectified.has(key)) rectified.set(key, fresh().extractChannel(0).raw().toBuffer({ resolveWithObject: true }).then(({ data, info }) => rectifiedBand(data, info.width, info.height)));
      const r = await rectified.get(key)!;
      if (r) s = sharp(r.data, { raw: { width: r.width, height: r.height, channels: 1 } });
    }
    if (flipped && exactFlip) {
      // 2.2: sharp applies a rotation before an extract in the same pipeline, so `extract().rotate(180)`
      // turned the whole image and cut the mirrored region: every 2.0/2.1 read "turned 180°" read
      // another part of the frame (kept there for stamped Cases). Cut first, then turn.
      const { data, info } = await s.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
      s = sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).rotate(180);
    } else if (flipped) s = s.rotate(180);
    s = s.resize(Math.max(8, Math.round(width * f)), Math.max(8, Math.round(height * f)), { kernel: f > 1 && !small ? 'cubic' : 'lanczos3' });
    // sharp's normalise() is owed on `s`: applied as sharp would, after the pipeline's other steps (`stretch.ts`).
    let stretch = true;
    let altered = false;
    // Only the retry variants are cleaned: the first read and its confirmations ('grey', 'binary',
    // 'small') see the crop as 2.5 does, so a band 2.5 reads valid reads valid alike, and the
    // cleaned reads (which cannot vouch for uncovered characters, `markCleaned`) add to the vote.
    if (overlayLines && (variant === 'tall' || variant === 'thin' || variant === 'flat')) {
      // 2.6: at reading scale, where the line height is known (b.lineHeight × f). The crop's pixels
      // are read once and go on from there; a crop with no line found is the same pixels as under 2.5.
      const { data, width: w, height: h } = await greyPixels(s, stretch);
      const cleaned = removeOverlayLines(data, w, h, b.lineHeight * f);
      s = sharp(cleaned, { raw: { width: w, height: h, channels: 1 } });
      stretch = false;
      if (cleaned !== data) altered = true;
    }
    // 2.1 (`flatten`): every variant but the plain 'grey' one starts from the flattened band.
    if ((flatten && variant !== 'grey') || variant === 'flat' || variant === 'thin') {
      const { data, width: w, height: h } = await greyPixels(s, stretch);
      let g = flatten || variant === 'flat' ? flattenBackground(data, w, h) : data;
      if (variant === 'thin') g = thinStrokes(g, w, h);
      s = sharp(g, { raw: { width: w, height: h, channels: 1 } });
      stretch = true;
    }
    if (variant === 'binary') s = s.sharpen({ sigma: 1 }).threshold(128);
    let png: Buffer;
    if (stretch) {
      const { data, width: w, height: h } = await greyPixels(s, true);
      png = await sharp(data, { raw: { width: w, height: h, channels: 1 } }).png(CROP_PNG).toBuffer();
    } else png = await s.png(CROP_PNG).toBuffer();
    if (altered) CLEANED.add(png);
    return png;
  };
}

/**
 * How much better the brightest-channel image must separate a band's ink from its paper before it
 * replaces luma (2.3 `ink: 'auto'`): luma is what 2.0–2.2 read, so it keeps ties and near-ties.
 * Chosen on the tuning side only (augmented tint copies: the brightest channel gains 0.03–0.05 on
 * tinted bands; untinted real scans differ by under 0.01 either way); 0.05 first, which left most
 * tinted bands on luma.
 */
const INK_MARGIN = 0.02;

/**
 * Otsu's separability of a band's grey pixels (between-class over total variance, 0..1): near 1
 * for dark ink on even paper, lower where a tint or pattern puts grey levels between them.
 */
export function separability(t: { data: Buffer; width: number; height: number }, b: { left: number; top: number; width: number; height: number }): number {
  const hist = new Float64Array(256);
  const x0 = Math.max(0, Math.min(b.left, t.width - 1)), y0 = Math.max(0, Math.min(b.top, t.height - 1));
  const x1 = Math.min(t.width, b.left + b.width), y1 = Math.min(t.height, b.top + b.height);
  // Every second pixel each way: plenty for a histogram.
  for (let y = y0; y < y1; y += 2) for (let x = x0; x < x1; x += 2) hist[t.data[y * t.width + x]!]! += 1;
  let n = 0, sum = 0, sum2 = 0;
  for (let v = 0; v < 256; v++) { n += hist[v]!; sum += v * hist[v]!; sum2 += v * v * hist[v]!; }
  if (n < 2) return 0;
  const mean = sum / n, total = sum2 / n - mean * mean;
  if (total <= 0) return 0;
  let w0 = 0, s0 = 0, best = 0;
  for (let v = 0; v < 255; v++) {
    w0 += hist[v]!; s0 += v * hist[v]!;
    if (w0 === 0 || w0 === n) continue;
    const m0 = s0 / w0, m1 = (sum - s0) / (n - w0);
    const between = (w0 / n) * (1 - w0 / n) * (m0 - m1) ** 2;
    if (between > best) best = between;
  }
  return best / total;
}

/**
 * Residual text angle (degrees, within ±4°) of a band: projection-profile energy of its dark
 * pixels, as `textAngle` does for the whole frame, on the band alone.
 */
export async function bandSkew(t: { data: Buffer; width: number; height: number }, left: number, top: number, width: number, height: number): Promise<number> {
  // At most ~600 px wide for speed: the angle does not need full resolution.
  const f = Math.min(1, 600 / width);
  const { data, width: w, height: h } = await greyPixels(sharp(t.data, { raw: { width: t.width, height: t.height, channels: 1 } })
    .extract({ left, top, width, height }).resize(Math.max(8, Math.round(width * f)), Math.max(4, Math.round(height * f))), true);
  const info = { width: w, height: h };
  const xs: number[] = [], ys: number[] = [];
  for (let y = 0; y < info.height; y++) for (let x = 0; x < info.width; x++) if (data[y * info.width + x]! < 110) { xs.push(x); ys.push(y); }
  if (xs.length < 40) return 0;
  const off = info.width + info.height;
  const bins = new Float64Array(2 * off + 2);
  const energy = (deg: number) => {
    const a = (deg * Math.PI) / 180, sn = Math.sin(a), c = Math.cos(a);
    bins.fill(0);
    for (let i = 0; i < xs.length; i++) bins[Math.round(ys[i]! * c - xs[i]! * sn) + off]! += 1;
    let e = 0;
    for (let i = 0; i < bins.length; i++) e += bins[i]! * bins[i]!;
    return e;
  };
  let best = 0, bestE = energy(0);
  for (let d = -4; d <= 4; d += 0.25) { const e = energy(d); if (e > bestE * 1.0001) { bestE = e; best = d; } }
  return best;
}

/**
 * 3.17: the band (grey, as cut and levelled) redrawn as a rectangle when its lines show a slanted
 * view (`rectify.ts`), else null.
 */
export function rectifiedBand(data: Buffer, w: number, h: number): { data: Buffer; width: number; height: number } | null {
  const before = measuredLines(data, w, h);
  const quad = before && rectifyingQuad(before.lines, before.chars);
  const out = quad && rectifyBand(data, w, h, quad);
  if (!out) return null;
  // Kept only if it worked: measured again, the redrawn band's lines are found with sure ends, and
  // square or at least half as far from square as before. A quadrilateral from a mismeasured end (a
  // document edge or a background mark taken for a character) leaves them as crooked as they were
  // or worse, and the band is then read as it was cut.
  const after = measuredLines(out, w, h);
  if (!after || after.lines.length < 2 || !after.lines[0]!.sure || !after.lines[after.lines.length - 1]!.sure) return null;
  const [d0, d1] = [distortion(before.lines), distortion(after.lines)];
  if (d1.ends > Math.max(0.5 * d1.hl, 0.5 * d0.ends) || d1.closing > Math.max(0.25 * d1.hl, 0.5 * d0.closing)) return null;
  return { data: out, width: w, height: h };
}

/** A band's lines as `rectify.ts` measures them, on its character-sized ink. */
function measuredLines(data: Buffer, w: number, h: number): { lines: BandLine[]; chars: { mask: Uint8Array; w: number; h: number } } | null {
  const mask = characterMask(bandInk(data, w, h), w, h);
  const lines = mask && bandLines(mask, w, h);
  return lines ? { lines, chars: { mask: mask!, w, h } } : null;
}

/** A band's ink (1) as `splitTextLines` separates it from paper: the background flattened, then Otsu's level. */
export function bandInk(data: Buffer, w: number, h: number): Uint8Array {
  const g = flattenBackground(data, w, h);
  const level = otsuLevel(g);
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < mask.length; i++) mask[i] = g[i]! < level ? 1 : 0;
  return mask;
}

/**
 * Lightens every pixel to the brightest of its 2×2 neighbourhood: dark strokes lose about a pixel
 * on each side. Bold or blurred print (infrared captures, ink spread, defocus) fills the
 * counters of B/8/0/D at the reading scale; thinner strokes open them again.
 */
export function thinStrokes(g: Buffer, w: number, h: number): Buffer {
  const out = Buffer.alloc(g.length);
  for (let y = 0; y < h; y++) {
    const y1 = Math.min(h - 1, y + 1);
    for (let x = 0; x < w; x++) {
      const x1 = Math.min(w - 1, x + 1);
      out[y * w + x] = Math.max(g[y * w + x]!, g[y * w + x1]!, g[y1 * w + x]!, g[y1 * w + x1]!);
    }
  }
  return out;
}

/**
 * Divides each pixel by the local background (the mean of a window about one line high and two
 * wide), so shading, glare gradients and tinted security print become flat paper and the global
 * threshold tesseract applies acts locally.
 */
export function flattenBackground(g: Buffer, w: number, h: number): Buffer {
  const integral = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += g[y * w + x]!;
      integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1]! + row;
    }
  }
  const ry = Math.max(4, Math.round(h / 6)), rx = 2 * ry;
  const out = Buffer.alloc(g.length);
  for (let y = 0; y < h; y++) {
    const a = Math.max(0, y - ry), b = Math.min(h, y + ry + 1);
    for (let x = 0; x < w; x++) {
      const l = Math.max(0, x - rx), r = Math.min(w, x + rx + 1);
      const sum = integral[b * (w + 1) + r]! - integral[a * (w + 1) + r]! - integral[b * (w + 1) + l]! + integral[a * (w + 1) + l]!;
      const mean = sum / ((b - a) * (r - l));
      // Paper sits above the local mean (text is the minority): scale so the mean maps to ~85 % grey.
      out[y * w + x] = Math.max(0, Math.min(255, Math.round((g[y * w + x]! / Math.max(1, mean)) * 217)));
    }
  }
  return out;
}

/**
 * Positions no check digit covers in an ICAO TD1/TD2/TD3 MRZ: the document code and issuing
 * state, the names, the nationality and the sex. Visas (no composite, optional data unchecked)
 * and the French ID (its own layout) are treated as wholly uncovered.
 */
function uncoveredMask(format: MrzFormat, kind: string): boolean[][] {
  const w = WIDTHS[format];
  const all = Array.from({ length: COUNTS[format] }, () => new Array<boolean>(w).fill(true));
  if (kind !== format) return all;
  const m = Array.from({ length: COUNTS[format] }, () => new Array<boolean>(w).fill(false));
  const set = (li: number, a: number, b: number) => { for (let k = a; k < b; k++) m[li]![k] = true; };
  if (format === 'TD1') { set(0, 0, 5); set(1, 7, 8); set(1, 15, 18); set(2, 0, w); } else { set(0, 0, w); set(1, 10, 13); set(1, 20, 21); }
  return m;
}

/**
 * 3.10 (`vetoExcuse`): the positions each check digit of a read covers (its data and the digit), as
 * [line, start, end) spans, for the checks `parseMrz` made of it (an absent personal number has none).
 */
export function checkSpans(p: ParsedMrz): Map<MrzCheck['field'], [number, number, number][]> {
  const m = new Map<MrzCheck['field'], [number, number, number][]>();
  const l = p.lines;
  const longRest = (optional: string) => longNumberTail(optional)?.more.length;
  if (p.kind === 'FR-ID') {
    m.set('document_number', [[1, 0, 13]]); m.set('birth_date', [[1, 27, 34]]); m.set('composite', [[0, 0, 36], [1, 0, 36]]);
  } else if (p.format === 'TD1') {
    const rest = l[0]![14] === '<' && /^[A-Z0-9]/.test(l[0]!.slice(15, 30)) ? longRest(l[0]!.slice(15, 30)) : undefined;
    m.set('document_number', rest === undefined ? [[0, 5, 15]] : [[0, 5, 14], [0, 15, 16 + rest]]);
    m.set('birth_date', [[1, 0, 7]]); m.set('expiry_date', [[1, 8, 15]]);
    m.set('composite', [[0, 5, 30], [1, 0, 7], [1, 8, 15], [1, 18, 30]]);
  } else {
    const visa = p.kind === 'MRV-A' || p.kind === 'MRV-B';
    const rest = p.format === 'TD2' && !visa && l[1]![9] === '<' && /^[A-Z0-9]/.test(l[1]!.slice(28, 35)) ? longRest(l[1]!.slice(28, 35)) : undefined;
    m.set('document_number', rest === undefined ? [[1, 0, 10]] : [[1, 0, 9], [1, 28, 29 + rest]]);
    m.set('birth_date', [[1, 13, 20]]); m.set('expiry_date', [[1, 21, 28]]);
    if (p.format === 'TD3' && !visa) m.set('personal_number', [[1, 28, 43]]);
    if (!visa) m.set('composite', p.format === 'TD3' ? [[1, 0, 10], [1, 13, 20], [1, 21, 44]] : [[1, 0, 10], [1, 13, 20], [1, 21, 36]]);
  }
  for (const f of [...m.keys()]) if (!p.checks.some((c) => c.field === f)) m.delete(f);
  return m;
}

/**
 * 3.10 (`vetoExcuse`): every character where `q` prints other than `v` lies inside a field whose own
 * (narrowest) check digit fails in `q`: `q` is wrong there by its own account. A difference at an
 * uncovered character, or inside a field `q`'s check digit holds, is not excused. The composite holds
 * only if every other check does.
 */
export function differencesExcused(q: Interpreted, v: Interpreted): boolean {
  if (!q.parsed || q.format !== v.format) return false;
  const holds = narrowestCheck(q.parsed);
  for (let li = 0; li < q.lines.length; li++) {
    for (let k = 0; k < q.lines[li]!.length; k++) {
      if (q.lines[li]![k] === v.lines[li]?.[k]) continue;
      if (holds(li, k) !== false) return false;
    }
  }
  return true;
}

/**
 * Whether the narrowest check digit over a position holds in the read `p` (null: no check digit
 * covers it). The composite spans the other checked fields: where one of them fails, the composite's
 * holding is a second error offsetting the first, not evidence, so it holds only if every check does.
 */
export function narrowestCheck(p: ParsedMrz): (li: number, k: number) => boolean | null {
  const spans = [...checkSpans(p)].map(([f, sp]) => ({ f, sp, size: sp.reduce((n, [, a, b]) => n + b - a, 0) })).sort((a, b) => a.size - b.size);
  const holds = (f: MrzCheck['field']) => p.checks.some((c) => c.field === f && c.ok) && (f !== 'composite' || p.checks.every((c) => c.ok));
  return (li, k) => {
    const narrowest = spans.find(({ sp }) => sp.some(([x, a, b]) => x === li && k >= a && k < b));
    return narrowest ? holds(narrowest.f) : null;
  };
}

/** The reads of `others` with `lines`' shape (as many lines, each as long). */
const sameShape = (others: string[][], lines: string[]) => others.filter((o) => o.length === lines.length && o.every((l, i) => l.length === lines[i]!.length));
/** A read's own `narrowestCheck` (no check holds in a read that does not parse). */
const ownChecks = (o: string[]): ((li: number, k: number) => boolean | null) => { const p = parseMrz(o, { extended: true }); return p ? narrowestCheck(p) : () => false; };

/**
 * 3.19 (`voteVeto`): the MRZ recogniser's read `q` objects to the version `v`; the objection is
 * overruled when, at every character where `q` prints otherwise, one of `others` (reads of a third
 * family: the glyph reader, PP-OCRv4) prints `v`'s character as its own witness: inside a checked
 * field with its own narrowest check digit there holding (3.18's rule), on a place no check digit
 * covers by printing that whole line as `v` does. One reader family against two then loses, as it
 * does in `confirm`, where tesseract's read and one identical read of another family are enough.
 */
export function objectionOverruled(q: Interpreted, v: { format: MrzFormat; lines: string[] }, others: string[][]): boolean {
  if (q.format !== v.format) return false;
  const fit = sameShape(others, v.lines);
  const own = fit.map(ownChecks);
  for (let li = 0; li < v.lines.length; li++) {
    for (let k = 0; k < v.lines[li]!.length; k++) {
      if (q.lines[li]?.[k] === v.lines[li]![k]) continue;
      const witnessed = fit.some((o, i) => {
        const holds = own[i]!(li, k);
        return holds === null ? o[li] === v.lines[li] : holds && o[li]![k] === v.lines[li]![k];
      });
      if (!witnessed) return false;
    }
  }
  return true;
}

/** 3.10 (`blindTwins`): characters with a look-alike of the same check value (see `ScanOptions.blindTwins`). */
export const BLIND_TWINS: ReadonlySet<string> = new Set(['6', 'G', '1', 'L', '0', '<', 'K']);
/** 3.13 (`blindEights`): 3.10's, and `8` and `S` (S = 28), a look-alike pair `CONFUSABLE` did not list. */
export const BLIND_EIGHTS: ReadonlySet<string> = new Set([...BLIND_TWINS, '8', 'S']);
/** The check-blind set a version's options ask for: 3.13's with `blindEights`, else 3.10's. */
export const blindTwinsOf = (o: { blindEights?: boolean }): ReadonlySet<string> => (o.blindEights ? BLIND_EIGHTS : BLIND_TWINS);
/** The attempt sources of reader families other than tesseract's. */
export const OTHER_FAMILIES = new Set(['glyph', 'mrz', 'rec']);

/**
 * 3.10 (`blindTwins`): every check-blind character of `v` in a field that takes letters and digits
 * alike and some check digit covers is printed alike, at its place, by one of `others` (reads of
 * another family, of `v`'s shape; the rest of those reads may be wrong).
 */
export function blindTwinsAgreed(v: { format: MrzFormat; lines: string[]; parsed: ParsedMrz | null }, others: string[][], twins: ReadonlySet<string> = BLIND_TWINS, witnessChecks = false, national: NationalFormats = {}): boolean {
  const mask = uncoveredMask(v.format, v.parsed?.kind ?? v.format);
  const fit = sameShape(others, v.lines);
  // 3.18 (`witnessChecks`): a witness counts at a place only where its own check digit over that
  // place holds (`narrowestCheck`).
  const own = witnessChecks ? fit.map(ownChecks) : null;
  for (let li = 0; li < v.lines.length; li++) {
    for (let k = 0; k < v.lines[li]!.length; k++) {
      const c = v.lines[li]![k]!;
      if (mask[li]![k] || !eitherClassAt(v.format, li, k, v.lines, national) || !twins.has(c)) continue;
      if (!fit.some((o, i) => o[li]![k] === c && (!own || own[i]!(li, k) === true))) return false;
    }
  }
  return true;
}

/**
 * Vote across reads of one band (2.1). Characters a check digit covers take the character most
 * reads printed (at least two, no tie): a wrong one there fails its check digit. The characters
 * no check digit covers are never voted piecemeal: all of them together must have been printed
 * identically, as they stand (before any repair), by at least two reads, and no read that passed
 * every check digit may have printed them differently. The result must then pass every check
 * digit and the structure rules.
 */
export function voteReads(reads: Interpreted[], plausible?: (p: ParsedMrz) => boolean, weak?: ReadonlySet<Interpreted>, swapAsRead = false): Interpreted | null {
  if (reads.length < 2) return null;
  // The format most reads agree on.
  const byFormat = new Map<MrzFormat, Interpreted[]>();
  for (const r of reads) byFormat.set(r.format, [...(byFormat.get(r.format) ?? []), r]);
  const rs = [...byFormat.values()].sort((a, b) => b.length - a.length)[0]!;
  if (rs.length < 2) return null;
  const format = rs[0]!.format;
  const kinds = new Set(rs.map((r) => r.parsed?.kind ?? format));
  const mask = uncoveredMask(format, kinds.size === 1 ? [...kinds][0]! : 'mixed');
  const key = (ls: string[]) => ls.map((l, li) => [...l].filter((_, k) => mask[li]![k]).join('')).join('|');
  // The uncovered characters: one string printed whole by two reads, contradicted by no valid read.
  const printed = new Map<string, number>();
  for (const r of rs) printed.set(key(r.rawLines), (printed.get(key(r.rawLines)) ?? 0) + 1);
  const ranked = [...printed.entries()].sort((a, b) => b[1] - a[1]);
  if (ranked[0]![1] < 2 || (ranked[1] && ranked[1][1] === ranked[0]![1])) return null;
  const agreed = ranked[0]![0];
  // `weak` reads (2.2: the glyph reader's) vote and agree but never veto: their known misreads of
  // real glyphs (E/L, 1/T) would otherwise turn every such band unreadable.
  if (rs.some((r) => r.valid && !weak?.has(r) && key(r.rawLines) !== agreed)) return null;
  const source = rs.find((r) => key(r.rawLines) === agreed)!.rawLines;
  const lines: string[] = [];
  for (let li = 0; li < COUNTS[format]; li++) {
    let line = '';
    for (let k = 0; k < WIDTHS[format]; k++) {
      if (mask[li]![k]) { line += source[li]![k]; continue; }
      const counts = new Map<string, number>();
      // 3.5 (`swapAsRead`): a character a check-digit swap chose is no vote: no read printed it.
      for (const r of rs) { const c = r.lines[li]?.[k]; if (c && !(swapAsRead && r.guessed?.includes(`${li}:${k}`))) counts.set(c, (counts.get(c) ?? 0) + 1); }
      const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1]);
      if (!sorted.length || sorted[0]![1] < 2 || (sorted[1] && sorted[1][1] === sorted[0]![1])) return null;
      line += sorted[0]![0];
    }
    lines.push(line);
  }
  const parsed = parseMrz(lines, { extended: true });
  const valid = !!parsed && parsed.checkDigitsValid && soundParse(parsed, plausible);
  if (!valid) return null;
  const confidences = lines.map((_, li) => Math.min(...rs.map((r) => r.confidences[li] ?? 0)));
  return { format, lines, rawLines: lines, parsed, confidences, corrections: Math.min(...rs.map((r) => r.corrections)), valid, checksOk: parsed.checks.length };
}

/**
 * A parse that can be an MRZ of its format, whatever its check digits say: what a valid read asks
 * besides them (the alphabet, dates that exist, a document code, the scan's plausibility rule: known
 * states and ICAO's fixed fields where the settings ask, a Case's template).
 */
function soundParse(parsed: ParsedMrz, plausible?: (p: ParsedMrz) => boolean): boolean {
  return parsed.structureErrors.length === 0 && /^[A-Z]/.test(parsed.documentCode) && (!plausible || plausible(parsed));
}

/** 3.26 (`reportSound`): a read whose parse is sound (`soundParse`), whatever its check digits say. */
export function soundRead(r: Interpreted, plausible?: (p: ParsedMrz) => boolean): boolean {
  return !!r.parsed && soundParse(r.parsed, plausible);
}

/**
 * Whether `r` outranks `than` as the read an unreadable scan reports for review: more check digits
 * passing (with `parseBonus`, a parse breaking ties); the earlier read, `than`, wins a tie. 3.26
 * (`reportSound`): a sound read (`soundRead`) first, whatever their check digits: digits passing by
 * chance on a read that cannot be the document's are no evidence that it is.
 */
export function reportOutranks(r: Interpreted, than: Interpreted, o: { reportSound: boolean; plausible?: (p: ParsedMrz) => boolean; parseBonus: boolean }): boolean {
  if (o.reportSound) {
    const a = soundRead(r, o.plausible), b = soundRead(than, o.plausible);
    if (a !== b) return a;
  }
  return o.parseBonus ? r.checksOk + (r.parsed ? 0.5 : 0) > than.checksOk + (than.parsed ? 0.5 : 0) : r.checksOk > than.checksOk;
}

/** 3.25: how many places of a line a read may differ from the reported read's and still vote on that line. */
const VOTE_MAX_DIFFERENCES = 3;

/**
 * 3.25 (`reportVote`): `top`'s lines with each place no check digit covers taken from the band's reads
 * of the same format: the character that at least two reader families print there, more families than
 * print `top`'s own, with no tie. Reads of one family count once (tesseract's reads of one band share
 * their errors: on the tuning side at ×0.3 two of them printed one wrong letter of a name alike). Only
 * reads aligned with `top` on a line vote there, differing from it at no more than
 * `VOTE_MAX_DIFFERENCES` places of the whole line: a read that dropped or added a character differs
 * at most places after it, and a vote across shifted reads prints neither (seen on the tuning side: a
 * nationality voted from shifted document numbers). The covered places stay `top`'s (they pass their
 * check digits). Null when nothing changes or the result does not parse with `top`'s checks passing.
 */
export function uncoveredVote(top: Interpreted, reads: Interpreted[], familyOf: (x: Interpreted) => string): ParsedMrz | null {
  if (!top.parsed) return null;
  const mask = uncoveredMask(top.format, top.parsed.kind ?? top.format);
  const same = reads.filter((x) => x.format === top.format && x.lines.length === top.lines.length);
  const differences = (a: string, b: string) => [...a].filter((c, k) => c !== b[k]).length;
  const aligned = top.lines.map((l, li) => same.filter((x) => x.lines[li]?.length === l.length && differences(x.lines[li]!, l) <= VOTE_MAX_DIFFERENCES));
  let changed = false;
  const lines = top.lines.map((l, li) => [...l].map((ch, k) => {
    if (!mask[li]![k]) return ch;
    const families = new Map<string, Set<string>>();
    for (const x of aligned[li]!) { const c = x.lines[li]![k]!; families.set(c, (families.get(c) ?? new Set()).add(familyOf(x))); }
    const ranked = [...families.entries()].map(([c, f]) => [c, f.size] as const).sort((p, q) => q[1] - p[1]);
    const [best, n] = ranked[0] ?? [ch, 0];
    if (best === ch || n < 2 || (ranked[1] && ranked[1][1] === n) || n <= (families.get(ch)?.size ?? 0)) return ch;
    changed = true;
    return best;
  }).join(''));
  if (!changed) return null;
  const parsed = parseMrz(lines, { extended: true });
  return parsed && parsed.checks.filter((k) => k.ok).length >= top.checksOk ? parsed : null;
}

export async function scanMrz(img: Raw, readers: ScanReaders, options: ScanOptions): Promise<MrzScan> {
  const stageMs: ScanStages = { locate: 0, crop: 0, tesseract: 0, glyph: 0, lines: 0, mrz: 0, rec: 0 };
  return { ...(await scanWith(img, readers, options, stageMs)), stageMs };
}

async function scanWith(img: Raw, readers: ScanReaders, options: ScanOptions, stageMs: ScanStages): Promise<MrzScan> {
  const timed = async <T>(stage: keyof ScanStages, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      stageMs[stage] += performance.now() - t0;
    }
  };
  const locate = (src: Raw, o: LocateOptions) => timed('locate', () => locateMrzBands(src, o));
  const plausible = scanPlausible(options);
  const opts: ScanOptions = plausible === options.plausible ? options : { ...options, plausible };
  const attempts: ScanAttempt[] = [];
  const alt = opts.ink === 'auto' ? brightestChannel(img) : undefined;
  if (opts.ink === 'value') img = brightestChannel(img);
  const textTurn: { across?: number; second?: number } = {};
  /** The band search's settings every search of this scan shares (each adds its angles, level or image). */
  const search = { workSide: opts.workSide, maxBands: opts.maxBands, lines: opts.lines, tilt: opts.tilt, adaptiveJoin: opts.adaptiveJoin, stripLines: !!opts.overlayLines, extendFirst: opts.extendFirst, splitMerged: opts.splitMerged, bestJoin: opts.bestJoin };
  let bands = await locate(img, { ...search, report: textTurn });
  const cut = bandCropper(img, opts.lineHeightPx, opts.retry?.primary === 'flat', !!opts.retry?.deskew, !!opts.exactFlip, opts.upscale, alt, opts.overlayLines === 'crops', opts.turnInterpolator, !!opts.retry?.rectify);
  const crop = (b: MrzBand, flipped: boolean, variant: CropVariant, flattenBase?: boolean) => timed('crop', () => cut(b, flipped, variant, flattenBase));
  let reads = 0;
  const budget = opts.maxReads ?? Infinity;
  const spent = () => reads >= budget;
  /** 2.4 (`enlargedBand`): the band being read, its reads, and the bands stopped as hopeless. */
  let current = -1;
  const perBand = new Map<number, number>();
  const bandLog = new Map<string, Interpreted[]>();
  const stopped = new Set<string>();
  let rightWayUp = false;
  /** 3.22 (`settledStop`): a band settled with most check digits holding: nothing more is read. */
  let closed = false;
  /** 3.29 (`misprintFamilies`): the read a band settled on (3.22) when its check digits do not all hold. */
  let settledMisprint: Interpreted | undefined;
  /** 2.5 (`conflictStop`): the valid tesseract reads of each band (both turns), and the bands stopped by two of them that disagree. */
  const validReads = new Map<number, Interpreted[]>();
  const conflicted = new Set<number>();
  const noteValid = (bi: number, b: MrzBand, r: Interpreted | null) => {
    if (!opts.conflictStop || !r?.valid || (opts.conflictStop === 'enlarged' && !(opts.upscale && b.lineHeight < opts.upscale.belowPx))) return;
    const log = [...(validReads.get(bi) ?? []), r];
    validReads.set(bi, log);
    if (log.some((x) => x.lines.join('|') !== r.lines.join('|'))) conflicted.add(bi);
  };
  const bounds = opts.enlargedBand;
  const enlarged = (b: MrzBand) => !!bounds && !!opts.upscale && b.lineHeight < opts.upscale.belowPx;
  /** No more reads of this band: the image budget, or (2.4) the enlarged band's own bounds. */
  /** 2.6 (`enlargedBand.imageReads`): tesseract reads spent on enlarged bands, all bands together. */
  let enlargedReads = 0;
  let currentEnlarged = false;
  const bandSpent = (bi: number, b: MrzBand, flipped: boolean) => spent() || stopped.has(`${bi}:${flipped}`) || conflicted.has(bi) || (enlarged(b) && ((perBand.get(bi) ?? 0) >= bounds!.maxReads || (bounds!.imageReads !== undefined && enlargedReads >= bounds!.imageReads)));
  /** 2.4: logs a tesseract read of an enlarged band; two reads with no line in common stop it. */
  const note = (bi: number, b: MrzBand, flipped: boolean, r: Interpreted | null) => {
    if (r?.parsed && r.checksOk >= r.parsed.checks.length / 2) rightWayUp = true;
    if (!enlarged(b) || !bounds!.stopApart) return;
    const key = `${bi}:${flipped}`;
    // Reads that made no sense (no MRZ shape) say nothing about agreement: the turn may be wrong.
    if (!r) return;
    const log = [...(bandLog.get(key) ?? []), r];
    bandLog.set(key, log);
    // Agreement: a line printed alike, or a field whose check digit holds in both reads with the same value.
    const fieldOf = (p: ParsedMrz, f: string) => (f === 'document_number' ? p.documentNumber : f === 'birth_date' ? p.birthDate : f === 'expiry_date' ? p.expiryDate : null);
    const held = (p: ParsedMrz | null) => new Set((p?.checks ?? []).filter((c) => c.ok && fieldOf(p!, c.field) !== null).map((c) => `${c.field}=${fieldOf(p!, c.field)}`));
    const share = (x: Interpreted, y: Interpreted) => x.format === y.format && (x.lines.some((l, k) => l === y.lines[k]) || [...held(x.parsed)].some((f) => held(y.parsed).has(f)));
    // A valid read is worth its confirmation reads: only bands with none are judged hopeless.
    if (log.length >= 2 && !log.some((x) => x.valid) && !log.some((x, i) => log.some((y, j) => j > i && share(x, y)))) stopped.add(key);
  };
  let lastCleaned = false;
  /** One tesseract read against the image's, the band's and the enlarged bands' budgets. */
  const countRead = () => {
    reads++;
    if (current >= 0) perBand.set(current, (perBand.get(current) ?? 0) + 1);
    if (currentEnlarged) enlargedReads++;
  };
  const ocrParams = mrzReadParams(opts);
  const tess = async (png: Buffer, primary = false) => {
    lastCleaned = CLEANED.has(png);
    countRead();
    const lines = (await timed('tesseract', () => readers.tesseract.recognize(png, ocrParams, opts.timeoutMs))).lines;
    // 2.8 (`splitLines`): fillers were read but no MRZ came of the lines: read line by line. Only
    // a band's first read: the variants that confirm it see it whole, as under 2.7 (on the tuning
    // side, split variants spent the image's read budget on a band 2.7 confirms with a later read).
    if (!opts.splitLines || !primary || mrzLinesFromOcr(lines) || !lines.some((l) => /<</.test(l.text) && norm(l.text).length >= 24)) return lines;
    const parts = await timed('lines', () => splitTextLines(png));
    if (!parts) return lines;
    // The line crops together are the band's area: one read against the budgets, as the block read.
    countRead();
    const out: OcrLine[] = [];
    for (const part of parts) {
      const got = (await timed('tesseract', () => readers.tesseract.recognize(part, ocrParams, opts.timeoutMs))).lines;
      // One text line per crop: the longest thing read in it.
      const longest = got.reduce<OcrLine | null>((m, l) => (!m || norm(l.text).length > norm(m.text).length ? l : m), null);
      if (longest) out.push(longest);
    }
    // Kept only when it reads valid: an invalid split read would stand in for the block read's
    // empty result and skip the flattened retry that reads such bands (2.7's path, kept).
    return interpret(out, opts.plausible, opts.lineRepair, opts)?.valid ? out : lines;
  };

  /**
   * 2.2 (`glyphVote`): the fixed-pitch OCR-B glyph reader on the band's primary crop, each line's
   * pitch from its own ink, glyphs compared at line and glyph scale (`glyphs.ts`), interpreted
   * like a tesseract read (type repair, check-digit-guided swaps). Once per band and turn.
   */
  /** Reads by another family than tesseract's (glyph reader, PP-OCRv4, the MRZ recogniser), and which (3.10 `familyMajority`). */
  const otherFamily = new WeakMap<Interpreted, 'glyph' | 'rec' | 'mrz'>();
  const family = (x: Interpreted) => otherFamily.get(x) ?? 'tesseract';
  /** 3.10 (`blindTwins`): the check-blind characters of `v` are printed alike by other families' reads of this band and turn. */
  const twinsAgreed = (bi: number, flipped: boolean, v: Interpreted) => !opts.blindTwins || blindTwinsAgreed(v, attempts.filter((a) => a.band === bi && a.flipped === flipped && OTHER_FAMILIES.has(a.source) && a.lines).map((a) => a.lines!), blindTwinsOf(opts), !!opts.witnessChecks, opts);
  /**
   * The key a band's glyph and line reads are cached under: its index, or (3.31 `recFirst`, which
   * reads a band before tesseract's first read may grow it by a missed TD1 line) the crop itself, so
   * that a grown band gets reads of its own. Before 3.31 no such read preceded a growth but 3.23's
   * gated ones, which keep the index as they were measured.
   */
  const readKey = (bi: number, b: MrzBand, flipped: boolean) => (opts.recFirst ? `${bi}:${cropKey(b, flipped)}` : `${bi}:${flipped}`);
  const glyphCache = new Map<string, Promise<Interpreted | null>>();
  /** The first read's crop of each band and turn, which the glyph reader reads too. */
  const primaryCrops = new Map<string, Buffer>();
  const cropKey = (b: MrzBand, flipped: boolean) => `${b.angle}:${b.left}:${b.top}:${b.width}:${b.height}:${flipped}`;
  /** The crop the band's first read saw (the flattened one when the band is read flattened). */
  const firstCrop = async (b: MrzBand, flipped: boolean): Promise<Buffer> => (!flatMode && primaryCrops.get(cropKey(b, flipped))) || crop(b, flipped, opts.retry?.primary ?? 'grey', flatMode || undefined);
  const glyphRead = (bi: number, b: MrzBand, flipped: boolean, format: MrzFormat): Promise<Interpreted | null> => {
    const key = `${readKey(bi, b, flipped)}:${format}`;
    if (!glyphCache.has(key)) {
      glyphCache.set(key, (async () => {
        const t0 = Date.now();
        const png = await firstCrop(b, flipped);
        const g = await timed('glyph', () => readers.glyph!.read(png, COUNTS[format], WIDTHS[format], 0, true));
        const r = g ? markCleaned(interpret(resolveTwins(g.lines.map((l) => l.text), format, opts).map((text, li) => ({ text, confidence: 100 * Math.max(0, Math.min(...g.lines[li]!.scores)) })), opts.plausible, opts.lineRepair, opts), CLEANED.has(png)) : null;
        const ok = r && r.format === format ? r : null;
        if (ok) otherFamily.set(ok, 'glyph');
        attempts.push({ band: bi, flipped, source: 'glyph', lines: ok?.lines ?? null, checksOk: ok?.checksOk ?? 0, checks: ok?.parsed?.checks.length ?? 0, ms: Date.now() - t0 });
        return ok;
      })());
    }
    return glyphCache.get(key)!;
  };

  /** The band's first crop cut into its text lines (`splitTextLines`), once per band and turn for both line readers. */
  const splitCache = new Map<string, Promise<{ png: Buffer; parts: Buffer[] | null }>>();
  const firstCropLines = (b: MrzBand, flipped: boolean) => {
    const key = cropKey(b, flipped);
    if (!splitCache.has(key)) splitCache.set(key, firstCrop(b, flipped).then(async (png) => ({ png, parts: await timed('lines', () => splitTextLines(png)) })));
    return splitCache.get(key)!;
  };
  /**
   * A learned line reader (2.9 `rec`: PP-OCRv4; 3.0 `mrz`: the MRZ recogniser) on the band's first
   * crop, one read per text line, interpreted like a tesseract read; once per reader, band and turn.
   */
  const lineReadCache = new Map<string, Promise<Interpreted | null>>();
  const lineRead = (source: 'rec' | 'mrz', bi: number, b: MrzBand, flipped: boolean): Promise<Interpreted | null> => {
    const key = `${source}:${readKey(bi, b, flipped)}`;
    if (!lineReadCache.has(key)) {
      lineReadCache.set(key, (async () => {
        const t0 = Date.now();
        const { png, parts } = await firstCropLines(b, flipped);
        const reads: { text: string; confidence: number }[] = [];
        for (const part of parts ?? []) reads.push(source === 'mrz' ? await timed('mrz', () => readers.mrz!.read(part)) : { text: await timed('rec', () => readers.rec!.read(part)), confidence: 1 });
        const texts = reads.map((q) => q.text);
        // 3.0: OCR-B's O and 0 are near one glyph, and the MRZ recogniser confuses them as the glyph
        // reader does (tuning: `OOZB00O002` for `00ZB000002`): where the lines have a format's exact
        // widths, the free O/0 positions are settled by the check digits (`resolveTwins`).
        const format = source === 'mrz' ? (Object.keys(COUNTS) as MrzFormat[]).find((f) => COUNTS[f] === texts.length && texts.every((t) => t.length === WIDTHS[f])) : undefined;
        const lines: OcrLine[] = (format ? resolveTwins(texts, format, opts) : texts).map((text, i) => ({ text, confidence: 100 * reads[i]!.confidence }));
        let r = parts ? markCleaned(interpret(lines, opts.plausible, opts.lineRepair, opts), CLEANED.has(png)) : null;
        // 3.4: the composite digit left a filler (unread, or read as one) is completed from the data.
        if (r && !r.valid && source === 'mrz' && opts.mrzCompositeErasure) {
          const done = completeComposite(r.rawLines, r.format);
          if (done !== r.rawLines) r = markCleaned(interpret(done.map((text, i) => ({ text, confidence: r!.confidences[i] ?? 0 })), opts.plausible, opts.lineRepair, opts), CLEANED.has(png)) ?? r;
        }
        if (r) otherFamily.set(r, source);
        attempts.push({ band: bi, flipped, source, lines: r?.lines ?? null, checksOk: r?.checksOk ?? 0, checks: r?.parsed?.checks.length ?? 0, ms: Date.now() - t0 });
        return r;
      })());
    }
    return lineReadCache.get(key)!;
  };
  const recRead = (bi: number, b: MrzBand, flipped: boolean) => lineRead('rec', bi, b, flipped);
  const mrzRead = (bi: number, b: MrzBand, flipped: boolean) => lineRead('mrz', bi, b, flipped);
  /**
   * 3.0 (`mrzVeto`): the MRZ recogniser read this band and turn in the version's format and printed
   * other lines. Only the recogniser's read made for this band and turn counts; none read, no veto.
   */
  const mrzObjects = async (bi: number, b: MrzBand, flipped: boolean, v: Interpreted): Promise<boolean> => {
    if (!opts.mrzVeto || !readers.mrz || !opts.mrzRec) return false;
    const q = await mrzRead(bi, b, flipped);
    return !!q && q.format === v.format && q.checksOk >= (opts.mrzVetoMinChecks ?? 0) && q.lines.some((l, k) => l !== v.lines[k]) && !(opts.vetoExcuse && differencesExcused(q, v));
  };

  /** 3.31 (`recFirst`): deferring while the first search's bands are read, and the bands deferred. */
  let deferring = !!opts.recFirst;
  const deferred: number[] = [];
  let best: { r: Interpreted; band: MrzBand; flipped: boolean } | null = null;
  const outranks = (r: Interpreted, than: Interpreted, parseBonus: boolean) => reportOutranks(r, than, { reportSound: !!opts.reportSound, plausible: opts.plausible, parseBonus });
  /** The read reported when none is valid: the most check digits passing, a parse breaking ties; the first read wins a tie. */
  const consider = (r: Interpreted, band: MrzBand, flipped: boolean) => {
    if (!best || outranks(r, best.r, true)) best = { r, band, flipped };
  };
  let flatTried = false;
  /** The current band is read from its flattened crop (2.1, after an empty plain read). */
  let flatMode = false;
  /** 3.20 (`innerSkip`): the bands read the right way up whose read has as many lines as they have. */
  const settled: MrzBand[] = [];
  const inside = (m: MrzBand, o: MrzBand) => {
    const tol = o.lineHeight / 2;
    return Math.abs(m.angle - o.angle) < 0.75 && m.left >= o.left - tol && m.top >= o.top - tol && m.left + m.width <= o.left + o.width + tol && m.top + m.height <= o.top + o.height + tol;
  };
  const tryBand = async (bi: number, band: MrzBand): Promise<MrzScan | null> => {
    let b = band;
    if (opts.innerSkip && settled.some((o) => inside(band, o))) return null;
    current = bi;
    currentEnlarged = enlarged(band);
    // 2.6: an enlarged band that the image-wide bound leaves no read is not started.
    if (currentEnlarged && bounds?.imageReads !== undefined && enlargedReads >= bounds.imageReads) return null;
    for (const flipped of [false, true]) {
      flatMode = false;
      if (bandSpent(bi, b, flipped)) break;
      const t0 = Date.now();
      const primary: CropVariant = opts.retry?.primary ?? 'grey';
      const png = await crop(b, flipped, primary);
      if ((readers.glyph && opts.glyphVote) || (readers.rec && opts.lineRec) || (readers.mrz && opts.mrzRec)) primaryCrops.set(cropKey(b, flipped), png);
      if (process.env.MRZ_DEBUG_DIR) await sharp(png).toFile(`${process.env.MRZ_DEBUG_DIR}/crop-${bi}-${flipped ? 1 : 0}.png`);
      // 3.20 (`turnSeen`): where no read of the upright crop had an MRZ's shape, the turned crop gets a
      // tesseract read only if the recogniser reads an MRZ in it. An MRZ upside down reads as MRZ-shaped
      // garbage upright, so its turned read is made at once, without the recogniser's cost first.
      if (flipped && opts.turnSeen && readers.mrz && opts.mrzRec && !attempts.some((a) => a.band === bi && !a.flipped && a.lines) && !(await mrzRead(bi, b, flipped))) break;
      // 3.31 (`recFirst`): the recogniser's read, confirmed by the glyph reader's, before any tesseract read.
      if (!flipped && opts.recFirst && readers.mrz && opts.mrzRec) {
        const q = await mrzRead(bi, b, false);
        if (q?.valid) {
          const c = await confirm(bi, b, false, q, [], true, true);
          if (c.valid) { consider(q, b, false); return c; }
        } else if (!q && deferring && bi > 0 && !(await mrzRead(bi, b, true))) {
          // Not the search's best band: it is the MRZ on most images, and deferred where the recogniser
          // misread it as nothing it lost its confirmation reads to the read budget of the bands after it.
          // Nor a band the recogniser reads but not validly: tesseract reads it now, as under 3.30.
          deferred.push(bi);
          return null;
        }
      }
      // 3.23 (`recGate`): the band's first tesseract read only where the MRZ recogniser reads an MRZ
      // in it, upright or turned; a band it reads as nothing either way is not read at all.
      if (!flipped && opts.recGate && readers.mrz && opts.mrzRec && !(await mrzRead(bi, b, false))) {
        if (!(await mrzRead(bi, b, true))) return null;
        continue;
      }
      const raw = await tess(png, true);
      let r = markCleaned(interpret(raw, opts.plausible, opts.lineRepair, opts), lastCleaned);
      // Two lines of TD1 width: the band missed the third line (TD1 lines can sit far apart). Grow it.
      if (!r && raw.filter((l) => Math.abs(norm(l.text).length - 30) <= 3).length === 2) {
        const grown = { ...b, top: Math.max(0, Math.round(b.top - 1.6 * b.lineHeight)), height: Math.round(b.height + 3.2 * b.lineHeight) };
        r = markCleaned(interpret(await tess(await crop(grown, flipped, primary)), opts.plausible, opts.lineRepair, opts), lastCleaned);
        if (r) b = grown;
      }
      // 2.6 (`growLone`): one MRZ-like line of TD3 or TD1 width (fillers in it) and nothing else:
      // an overlay (a highlight bar's edge, a crosshair) cut the band between MRZ lines. Grow it
      // and read once more.
      const lone = !r && opts.growLone ? loneMrzLine(raw) : null;
      if (lone && !bandSpent(bi, b, flipped)) {
        // The band's own height: for a one-line band it is that line's height with its margin.
        // One more line each way for a passport line, two for an ID card's (three lines).
        const k = lone === 'TD3' ? 1.5 : 2.5;
        const grown = { ...b, top: Math.max(0, Math.round(b.top - k * b.height)), height: Math.round((1 + 2 * k) * b.height) };
        r = markCleaned(interpret(await tess(await crop(grown, flipped, primary)), opts.plausible, opts.lineRepair, opts), lastCleaned);
        if (r) b = grown;
      }
      attempts.push({ band: bi, flipped, source: `tesseract:${primary}`, lines: r?.lines ?? null, checksOk: r?.checksOk ?? 0, checks: r?.parsed?.checks.length ?? 0, ms: Date.now() - t0 });
      note(bi, b, flipped, r);
      noteValid(bi, b, r);
      // 2.1: nothing sensible from a band of two or more lines: shading or tinted print can hide
      // whole lines from tesseract's global threshold. Read it once more with the background
      // flattened before turning it.
      const earlier: { variant: CropVariant | 'glyph' | 'rec' | 'mrz'; r: Interpreted | null }[] = [];
      // Once per image (the best band, upright first), so that images without a readable MRZ do
      // not spend their read budget on it.
      if (!r && opts.retry?.flatWhenEmpty && !flatTried && b.lines >= 2 && !bandSpent(bi, b, flipped)) {
        flatTried = true;
        const t1 = Date.now();
        r = markCleaned(interpret(await tess(await crop(b, flipped, 'flat')), opts.plausible, opts.lineRepair, opts), lastCleaned);
        // The band needed flattening: its confirmation and retry reads start from it too.
        flatMode = !!r;
        earlier.push({ variant: 'flat', r: null });
        attempts.push({ band: bi, flipped, source: 'tesseract:flat', lines: r?.lines ?? null, checksOk: r?.checksOk ?? 0, checks: r?.parsed?.checks.length ?? 0, ms: Date.now() - t1 });
        note(bi, b, flipped, r);
        noteValid(bi, b, r);
      }
      // 3.0 (`mrzRec`): tesseract's read does not pass: the MRZ recogniser's read of the first
      // crop, if it passes, is the first read. It is not its own confirmation (`confirm` skips it).
      let mrzFirst = false;
      let recReport: Interpreted | null = null;
      if (!r?.valid && readers.mrz && opts.mrzRec) {
        const q = await mrzRead(bi, b, flipped);
        // A read that does not pass still votes (without a veto) if the band is retried.
        if (q?.valid) { r = q; mrzFirst = true; } else if (q) { earlier.push({ variant: 'mrz', r: q }); recReport = q; }
      }
      if (r) consider(r, b, flipped);
      // 3.1 (`reportBest`): when no read is valid, the read reported for review may be the
      // recogniser's, if more of its check digits pass than of any tesseract read (tuning, x0.3: a
      // card's exact recogniser read lost to a tesseract read with its sex and nationality wrong).
      if (recReport && opts.reportBest) consider(recReport, b, flipped);
      if (r?.valid) {
        const confirmReads = [...earlier];
        const c = await confirm(bi, b, flipped, r, confirmReads, mrzFirst);
        if (c.valid || !opts.retry) return c;
        // 2.1: unconfirmed: the other variants and the vote over all reads may still settle it.
        // The band's reads, which the retries add to: the report of an unreadable band weighs them all.
        const pool = [r, ...confirmReads.flatMap((e) => (e.r ? [e.r] : []))];
        const done = await retryBand(bi, b, flipped, r, confirmReads, pool);
        return done ?? majority(b, flipped, pool) ?? reported(c, r, pool);
      }
      // One check digit off with a sound structure: if a second read prints the same lines, the
      // document itself says so (a misprinted check digit), and other bands will not change it.
      // 3.29 (`misprintFamilies`): most check digits fail, yet another family prints the same lines
      // (only another family's read counts then: `confirm`'s families-only mode).
      const misprintReads = [...earlier];
      const oneOff = !!r?.parsed && r.checksOk === r.parsed.checks.length - 1;
      const mostFail = !!opts.misprintFamilies && !!r?.parsed && r.checksOk < r.parsed.checks.length / 2;
      if (r?.parsed && r.parsed.structureErrors.length === 0 && (oneOff || mostFail)) {
        const again = await confirm(bi, b, flipped, r, misprintReads, false, !oneOff);
        if (again.nameConfirmed) return { ...again, valid: false, reason: 'mrz_check_digits_failed' };
      }
      // 2.1: the band is the right way up but the read is not valid: read it again other ways
      // and vote per character.
      if (opts.retry && r?.parsed && r.checksOk >= r.parsed.checks.length / 2) {
        const pool = [r, ...misprintReads.flatMap((e) => (e.r ? [e.r] : []))];
        const done = (await retryBand(bi, b, flipped, r, misprintReads, pool)) ?? majority(b, flipped, pool);
        if (done) return done;
      }
      // A read with most check digits right was the right way up; turning it will not help.
      if (r?.parsed && r.checksOk >= r.parsed.checks.length / 2) {
        if (r.lines.length === b.lines) settled.push(b);
        break;
      }
    }
    return null;
  };

  /**
   * 2.1 retries of one band: the second reads (binary, small) and the configured variants, until
   * one read is valid and confirmed by another identical read, or the per-character vote over all
   * reads of the band is valid. Stops at the read budget. `pool` holds the band's reads and gets
   * every retry read added (the caller's array, when it needs them afterwards).
   */
  const retryBand = async (bi: number, b: MrzBand, flipped: boolean, first: Interpreted, earlier: { variant: CropVariant | 'glyph' | 'rec' | 'mrz'; r: Interpreted | null }[] = [], pool: Interpreted[] = [first, ...earlier.flatMap((e) => (e.r ? [e.r] : []))]): Promise<MrzScan | null> => {
    // `glyphWeak`: the glyph reader's read votes and can confirm, but a valid glyph read that
    // differs from tesseract's is not a second version: without it the band is judged as 2.1 would.
    // 2.2 lets a glyph read veto; 2.3 (`glyphWeak`) does not.
    const weak = new Set([...(opts.glyphWeak ? earlier.filter((e) => e.variant === 'glyph' && e.r).map((e) => e.r!) : []), ...earlier.filter((e) => (e.variant === 'rec' || e.variant === 'mrz') && e.r).map((e) => e.r!)]);
    const asRead = (x: Interpreted, want: Interpreted) => uncovered(x.rawLines, x.format) === uncovered(want.lines, want.format);
    for (const variant of ['binary', 'small', ...opts.retry!.variants] as CropVariant[]) {
      if (earlier.some((e) => e.variant === variant) || variant === (opts.retry!.primary ?? 'grey')) continue;
      if (bandSpent(bi, b, flipped)) break;
      const t0 = Date.now();
      const r2 = markCleaned(interpret(await tess(await crop(b, flipped, variant, flatMode || undefined)), opts.plausible, opts.lineRepair, opts), lastCleaned);
      attempts.push({ band: bi, flipped, source: `tesseract:${variant}`, lines: r2?.lines ?? null, checksOk: r2?.checksOk ?? 0, checks: r2?.parsed?.checks.length ?? 0, ms: Date.now() - t0 });
      note(bi, b, flipped, r2);
      noteValid(bi, b, r2);
      if (!r2) continue;
      pool.push(r2);
      if (outranks(r2, best!.r, false)) best = { r: r2, band: b, flipped };
      // A valid read confirmed by another identical read (the 2.0 rule, over the whole pool).
      // Every read that passes its check digits must print the same lines: two versions that both
      // pass (offsetting misreads in one field, a shifted name line) leave the band unreadable.
      const versions = new Map<string, Interpreted[]>();
      for (const x of pool) if (x.valid && !weak.has(x)) versions.set(x.lines.join('|'), [...(versions.get(x.lines.join('|')) ?? []), x]);
      if (versions.size > 1) break;
      // A weak read agreeing with the version confirms it like any other read.
      for (const x of weak) if (x.valid && versions.has(x.lines.join('|'))) versions.get(x.lines.join('|'))!.push(x);
      const only = versions.size === 1 ? [...versions.values()][0]! : null;
      let confirmedValid = only && only.length >= 2 && only.some((x) => only.some((y) => y !== x && (asRead(x, x) || asRead(y, x)) && !(opts.swapAsRead && sharedGuess(x, y)))) ? only[0] : undefined;
      // 3.0 (`mrzVeto`): a version printed by tesseract reads only, which the MRZ recogniser reads otherwise, is not confirmed.
      if (confirmedValid && !only!.some((x) => otherFamily.has(x)) && (await mrzObjects(bi, b, flipped, confirmedValid))) confirmedValid = undefined;
      // 3.10 (`blindTwins`): tesseract reads alone confirm no check-blind character another family does not print alike.
      if (confirmedValid && !only!.some((x) => otherFamily.has(x)) && !twinsAgreed(bi, flipped, confirmedValid)) confirmedValid = undefined;
      let vote = !confirmedValid && opts.retry!.vote ? voteReads(pool, opts.plausible, weak, !!opts.swapAsRead) : null;
      const votedByOther = !!vote && pool.some((x) => otherFamily.has(x) && x.lines.join('|') === vote!.lines.join('|'));
      if (vote && !votedByOther && !twinsAgreed(bi, flipped, vote)) vote = null;
      // 3.19 (`voteVeto`): a vote no other family prints as a whole is tesseract's reads outvoting the
      // recogniser, which the confirmation above does not allow them (3.0's `mrzVeto`), unless a third
      // family prints the vote where the recogniser does not (`objectionOverruled`).
      if (vote && !votedByOther && opts.voteVeto && (await mrzObjects(bi, b, flipped, vote))) {
        const third = attempts.filter((a) => a.band === bi && a.flipped === flipped && (a.source === 'glyph' || a.source === 'rec') && a.lines).map((a) => a.lines!);
        if (!objectionOverruled((await mrzRead(bi, b, flipped))!, vote, third)) vote = null;
      }
      const voted = confirmedValid ?? (vote && (!only || vote.lines.join('|') === only[0]!.lines.join('|')) ? vote : null);
      if (voted) {
        return {
          parsed: voted.parsed, valid: true, lineConfidence: voted.confidences, confidence: Math.min(...voted.confidences),
          nameConfirmed: true, corrections: voted.corrections, band: { ...strip(b), flipped }, attempts, bandsFound: bands.length,
        };
      }
      // 3.22 (`settledStop`): settled with most check digits holding, the band is the MRZ, read
      // as it will read: no other band or search is read either (`closed`).
      if (opts.settledStop && settledBand(pool, family)) {
        if (first.parsed && first.checksOk >= first.parsed.checks.length / 2) {
          closed = true;
          if (opts.misprintFamilies && first.parsed.structureErrors.length === 0 && first.checksOk < first.parsed.checks.length) settledMisprint = first;
        }
        break;
      }
    }
    return null;
  };

  /**
   * 3.1 (`reportBest`): an unconfirmed first read `r` whose band also has another version passing its
   * checks, printed by more of the band's reads than `r`'s version: that version is the one reported
   * for review. Still not valid: two versions that both pass leave the band unreadable.
   */
  const reported = (c: MrzScan, r: Interpreted, reads: Interpreted[]): MrzScan => {
    if (c.valid || !opts.reportBest) return c;
    const support = (v: Interpreted) => reads.filter((x) => x.valid && x.format === v.format && x.lines.join('|') === v.lines.join('|')).length;
    // 3.11 (`reportFamilies`): how many reader families print each of its lines, summed over its lines.
    const lineFamilies = (v: Interpreted) => v.lines.reduce((n, l, li) => n + new Set(reads.filter((x) => x.format === v.format && x.lines[li] === l).map(family)).size, 0);
    let top = r;
    for (const x of reads) if (x.valid && (support(x) > support(top) || (opts.reportFamilies && support(x) === support(top) && lineFamilies(x) > lineFamilies(top)))) top = x;
    const voted = opts.reportVote ? uncoveredVote(top, reads, family) : null;
    if (voted) return { ...c, parsed: voted, lineConfidence: top.confidences, confidence: Math.min(...top.confidences) / 2, corrections: top.corrections };
    if (top === r) return c;
    return { ...c, parsed: top.parsed, lineConfidence: top.confidences, confidence: Math.min(...top.confidences) / 2, corrections: top.corrections };
  };

  /** 3.10 (`familyMajority`), 3.15 (`nameMajority`): the band's conflict settled by reader families (`familyMajorityRead`). */
  const majority = (b: MrzBand, flipped: boolean, pool: Interpreted[]): MrzScan | null => {
    if (!opts.familyMajority) return null;
    const v = familyMajorityRead(pool, family, !!opts.nameMajority, !!opts.dividedDissent, !!opts.fillerDissent);
    if (!v) return null;
    return {
      parsed: v.parsed, valid: true, lineConfidence: v.confidences, confidence: Math.min(...v.confidences),
      nameConfirmed: true, corrections: v.corrections, band: { ...strip(b), flipped }, attempts, bandsFound: bands.length,
    };
  };

  /** A second, independent read must give the same name line; else the read is not `valid`. */
  const confirm = async (bi: number, b: MrzBand, flipped: boolean, r: Interpreted, log?: { variant: CropVariant | 'glyph' | 'rec' | 'mrz'; r: Interpreted | null }[], mrzFirst = false, familiesOnly = false): Promise<MrzScan> => {
    const nameLine = NAME_LINE[r.format];
    // Whole-MRZ agreement, not only the name line: two offsetting misreads can satisfy a check
    // digit (seen on a real Czech specimen: 9→2 and 1→I in the personal number).
    let confirmed = false;
    const asRead = (x: Interpreted) => uncovered(x.rawLines, x.format) === uncovered(r.lines, r.format);
    const same = (r2: Interpreted | null) => !!r2 && r2.format === r.format && r2.lines.every((l, k) => l === r.lines[k]) && r2.lines[nameLine] === r.lines[nameLine] && (asRead(r) || asRead(r2)) && !(opts.swapAsRead && sharedGuess(r, r2));
    /** The other family's read that printed the same lines, if one did. */
    let witness: Interpreted | null = null;
    // Other families first, each on its own cached read of the band.
    const otherFamilyConfirms = async (): Promise<boolean> => {
      // 2.2: the OCR-B glyph reader. An independent recogniser printing the same lines is a
      // stronger confirmation than a second tesseract read of another preprocessing (their errors
      // correlate), and it costs a tenth of one.
      if (readers.glyph && opts.glyphVote) {
        const g = await glyphRead(bi, b, flipped, r.format);
        log?.push({ variant: 'glyph', r: g });
        if (same(g)) { witness = g; return true; }
      }
      // 3.0 (`mrzRec`): the MRZ recogniser, another family than tesseract's, confirms a tesseract
      // first read it prints identically; a read of its own is never its own confirmation.
      if (readers.mrz && opts.mrzRec && !mrzFirst) {
        const q = await mrzRead(bi, b, flipped);
        log?.push({ variant: 'mrz', r: q });
        if (same(q)) { witness = q; return true; }
      }
      return false;
    };
    confirmed = await otherFamilyConfirms();
    for (const variant of confirmed || familiesOnly ? [] : ['binary', 'small'] as const) {
      // A valid read always gets one confirmation, whatever the budget.
      if (variant === 'small' && bandSpent(bi, b, flipped)) break;
      const t0 = Date.now();
      const r2 = markCleaned(interpret(await tess(await crop(b, flipped, variant, flatMode || undefined)), opts.plausible, opts.lineRepair, opts), lastCleaned);
      log?.push({ variant, r: r2 });
      attempts.push({ band: bi, flipped, source: `tesseract:${variant}`, lines: r2?.lines ?? null, checksOk: r2?.checksOk ?? 0, checks: r2?.parsed?.checks.length ?? 0, ms: Date.now() - t0 });
      note(bi, b, flipped, r2);
      noteValid(bi, b, r2);
      // 2.5 (`conflictStop`): a second valid version: no later read may side with the first.
      if (conflicted.has(bi)) break;
      // 3.0 (`mrzVeto`): tesseract confirming tesseract, while the MRZ recogniser reads otherwise, is no confirmation.
      confirmed = same(r2) && (otherFamily.has(r) || (!(await mrzObjects(bi, b, flipped, r)) && twinsAgreed(bi, flipped, r)));
      if (confirmed) break;
      // 2.9 (`lineRec`): the learned recogniser, another family than tesseract's, when the binary
      // read did not confirm: the same lines are a confirmation, as the glyph reader's are; a read
      // that differs is only logged (it votes later, without a veto). After the binary read, not
      // before it: measured on the tuning side, it agrees less often than the binary read (it
      // drops characters in tight spacing) and costs about as much.
      if (variant === 'binary' && readers.rec && opts.lineRec) {
        const q = await recRead(bi, b, flipped);
        log?.push({ variant: 'rec', r: q });
        confirmed = same(q);
        if (confirmed) break;
      }
    }
    // 3.31 (`recFirst`): a line two families printed alike is at least as sure as the surer of them. The
    // MRZ recogniser's confidence is its least certain character's probability, often far below tesseract's
    // line confidence for the same line (0.005 against 0.91 on a synthetic card), so its read reported
    // alone would turn a confirmed MRZ into a near-zero document_ocr score.
    const w = opts.recFirst && confirmed ? (witness as Interpreted | null) : null;
    const lineConfidence = w ? r.confidences.map((c, k) => Math.max(c, w.confidences[k] ?? 0)) : r.confidences;
    const conf = Math.min(...lineConfidence);
    return {
      parsed: r.parsed, valid: confirmed, reason: confirmed ? undefined : 'mrz_unreadable', lineConfidence,
      confidence: confirmed ? conf : conf / 2, nameConfirmed: confirmed, corrections: r.corrections,
      band: { ...strip(b), flipped }, attempts, bandsFound: bands.length,
    };
  };

  /** A band already in the list: same turn, corners within 20 px. */
  const known = (m: MrzBand) => bands.some((b) => sameBand(b, m));
  /** 3.7: a band found by a later search is read next if more MRZ-like than every band left, else last. */
  const placeNext = (found: MrzBand) => bands.splice(found.score > Math.max(...bands.slice(1).map((b) => b.score)) ? 1 : bands.length, 0, found);
  /** One band search at `angle` (no tilt passes): its most MRZ-like strictly paired band, if any. */
  const searchAt = async (angle: number) => (await locate(img, { ...search, maxBands: 1, angles: [angle], tilt: false })).find((b) => !b.fallback);
  /** A band already searched that way: a band in the list at that angle. */
  const searchedAt = (angle: number) => bands.some((b) => Math.abs(b.angle - angle) < 0.75);
  /** A later search's most MRZ-like strictly paired stack that is not a band already in the list. */
  const newStack = (found: MrzBand[]) => found.find((m) => !m.fallback && m.lines >= 2 && !known(m));
  /** 3.21 (`fineSearch`): the most MRZ-like stack of the search on a larger working image, if not already found. */
  // Only a frame the finer copy still shrinks (`fineWorkSide`): enlarged, a 1 000-px card photo under
  // perspective ranked a caption stack above its MRZ.
  const fineBand = async () => {
    const side = fineWorkSide(img, opts.workSide, opts.fineSearch!);
    return side === null ? undefined : newStack(await locate(img, { ...search, workSide: side }));
  };
  /** 3.30 (`thinSearch`): the most MRZ-like stack of the search that keeps one-pixel strokes, if not already found. */
  const thinBand = async () => newStack(await locate(img, { ...search, thin: true }));
  /** Whether the first search found a band (then the later searches ran after the best one failed). */
  const firstFound = bands.length > 0;
  /** The searches after the best band did not read: once per image. */
  const laterSearches = async () => {
    // 3.7 (`acrossText`): search across the text (only if no band is already that way).
    const across = textTurn.across, second = textTurn.second;
    if (opts.acrossText && across !== undefined && !spent() && !searchedAt(across)) {
      const found = await searchAt(across);
      if (found) placeNext(found);
    }
    // 3.9 (`inkSearch`): search once on the brightest channel, and cut its band from there.
    if (opts.inkSearch && alt && !spent()) {
      const found = (await locate(alt, { ...search, maxBands: 1 })).find((m) => m.lines >= 2 && !known(m));
      if (found) placeNext({ ...found, ink: 'value' });
    }
    // 3.12 (`secondText`): the frame's second text direction, unless a band or the search across is already that way.
    if (opts.secondText && second !== undefined && !spent() && !searchedAt(second) && !(opts.acrossText && across !== undefined && Math.abs(across - second) < 0.75)) {
      const found = await searchAt(second);
      if (found && !known(found)) placeNext(found);
    }
    // 3.21 (`fineSearch`): the same search on a larger working image.
    if (opts.fineSearch && !spent()) {
      const found = await fineBand();
      if (found) placeNext(found);
    }
    // 3.30 (`thinSearch`): the same search with one-pixel strokes kept (`withoutSmallComponents`).
    if (opts.thinSearch && !spent()) {
      const found = await thinBand();
      if (found) placeNext(found);
    }
  };
  /** The scan's result when no band read valid: the best read for review, if any. */
  const unread = (): MrzScan => {
    if (!best) return { parsed: null, valid: false, reason: bands.length ? 'mrz_unreadable' : 'mrz_not_found', lineConfidence: [], confidence: 0, nameConfirmed: false, corrections: 0, attempts, bandsFound: bands.length };
    const b = best as { r: Interpreted; band: MrzBand; flipped: boolean };
    return {
      // 3.29 (`misprintFamilies`): a band settled by two families on one sound read whose check
      // digits fail: the document's check digits fail as printed.
      parsed: b.r.parsed, valid: false, reason: (!opts.honestReason && b.r.parsed && b.r.parsed.structureErrors.length === 0) || (settledMisprint && settledMisprint.format === b.r.format && settledMisprint.lines.join('|') === b.r.lines.join('|')) ? 'mrz_check_digits_failed' : 'mrz_unreadable',
      lineConfidence: b.r.confidences, confidence: Math.min(...b.r.confidences) / 2, nameConfirmed: false, corrections: b.r.corrections,
      band: { ...strip(b.band), flipped: b.flipped }, attempts, bandsFound: bands.length,
    };
  };
  /** One band's read; once a band has settled (3.22 `closed`), the scan's result. */
  const readBand = async (i: number, band: MrzBand): Promise<MrzScan | null> => (await tryBand(i, band)) ?? (closed ? unread() : null);
  for (let i = 0; i < bands.length; i++) {
    const done = await readBand(i, bands[i]!);
    if (done) return done;
    if (i === 0) await laterSearches();
  }
  // 3.31 (`recFirst`): no band the recogniser read something in settled: the bands it read nothing in, in order.
  deferring = false;
  for (const i of deferred) {
    const done = await readBand(i, bands[i]!);
    if (done) return done;
  }
  // Nothing valid at the estimated text angle: the straight and quarter-turned frames.
  // 2.2 (`tilt` profiles): with the read budget spent the search could read nothing it finds; skip it.
  // 2.4 (`enlargedBand.keepTurn`): a band read the right way up settles the turn; bounded bands
  // leave budget unspent, and the quarter-turn search would spend it on other angles.
  if ((!best || !(best as { r: Interpreted }).r.valid) && !(opts.tilt && spent()) && !(bounds?.keepTurn && rightWayUp)) {
    const done = new Set(bands.map((b) => b.angle));
    const more = await locate(img, { ...search, angles: [0, 90, -90].filter((a) => !done.has(a)), skipAngles: [...done] });
    const fresh = more.filter((m) => !known(m)).slice(0, opts.maxBands);
    bands = [...bands, ...fresh];
    for (let i = bands.length - fresh.length; i < bands.length; i++) {
      const done = await readBand(i, bands[i]!);
      if (done) return done;
    }
  }
  // 3.8 (`faintUnlessStack`): also when every band found is one blob (no two lines stacked) and none read valid.
  // A merged blob split into lines (3.12) is still one blob here: the faint search is for frames whose
  // ink formed no stack, and measured on the synthetic pages, counting split blobs as stacks cost it.
  const stackless = !bands.some((b) => b.lines >= 2 && !b.split);
  if (opts.faintSearch && (!bands.length || (opts.faintUnlessStack && stackless && !(best as { r: Interpreted } | null)?.r.valid))) {
    const faint = await locate(img, { ...search, faint: opts.faintSearch });
    const start = bands.length;
    bands = [...bands, ...faint.filter((m) => !known(m))];
    for (let i = start; i < bands.length; i++) {
      const done = await readBand(i, bands[i]!);
      if (done) return done;
    }
  }
  // 3.12 (`secondText`): the first search found no band, so none failed to call the later searches,
  // and nothing since read valid: the second text direction last, after the quarter turns and the
  // faint search (on the tuning side a faint MRZ went unread when this search came first and its
  // band, in a zoomed inset's slanted print, spent the read budget).
  const second = textTurn.second;
  /** A search of the first search's own later ones, when it found no band: its band read, if it finds a new one. */
  const lastSearch = async (find: () => Promise<MrzBand | undefined>): Promise<MrzScan | null> => {
    if (firstFound || (best as { r: Interpreted } | null)?.r.valid || spent()) return null;
    const found = await find();
    if (!found || known(found)) return null;
    bands.push(found);
    return readBand(bands.length - 1, found);
  };
  const lastSearches = [
    opts.secondText && second !== undefined && !searchedAt(second) ? () => searchAt(second) : null,
    // 3.21 (`fineSearch`): the larger working image.
    opts.fineSearch ? fineBand : null,
    // 3.30 (`thinSearch`): one-pixel strokes kept, after everything else (an MRZ whose strokes the opening
    // erased may be all the print there is, so that the first search found nothing).
    opts.thinSearch ? thinBand : null,
  ];
  for (const find of lastSearches) {
    const done = find && (await lastSearch(find));
    if (done) return done;
  }
  return unread();
}

/**
 * 2.3 (`ink: 'value'`): each pixel's brightest channel. MRZ ink is black (dark in every channel);
 * tinted paper and security print in one colour are bright in at least one channel, so they fade
 * towards white while the characters keep their full contrast. Grey input is returned as it is.
 */
export function brightestChannel(img: Raw): Raw {
  if (img.channels === 1) return img;
  const n = img.width * img.height;
  const out = Buffer.alloc(n);
  const d = img.data;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const r = d[j]!, g = d[j + 1]!, b = d[j + 2]!;
    out[i] = r > g ? (r > b ? r : b) : g > b ? g : b;
  }
  return { data: out, width: img.width, height: img.height, channels: 1 };
}

function strip(b: MrzBand): Omit<MrzBand, 'score'> {
  const { score: _score, ...rest } = b;
  return rest;
}


/**
 * 2.6 (`overlayLines`): thin straight lines drawn over an MRZ band (a camera app's focus
 * crosshair or frame, a vendor illustration's outline or highlight edge) are taken out of the
 * band's crop before it is read. `g` is the crop at reading scale, `lh` its line height in pixels.
 * - Dark lines: a run of ink along a row longer than `DARK_RUN` line heights and a tenth of the
 *   crop's width (MRZ glyphs are separate, under a line height wide, and chevrons are diagonal
 *   strokes), at most `THIN` of a line height thick; along a column, a run of ink longer than
 *   `DARK_RUN_V` line heights and 0.8 of the crop's height (a line crossing the band; a glyph is at
 *   most one line high and the lines of a band are apart). Each such pixel takes the lighter of the
 *   two pixels just past the line on either side: a glyph's stroke that the line crosses is dark on
 *   both sides and stays, paper is light on both sides and the line goes.
 * - Light lines: rows where, over a stretch of `WINDOW` line heights, the ink of the rows on either
 *   side is at least four times the row's own (a pale line cutting through a text line's glyphs).
 *   Those rows take the darker of the two rows just past them, which joins the cut strokes.
 * Returns `g` itself when it finds no line, so a band without an overlay is read exactly as before.
 */
export function removeOverlayLines(g: Buffer, w: number, h: number, lh: number): Buffer {
  if (w < 16 || h < 8 || lh < 6) return g;
  const level = otsuLevel(g);
  const ink = (i: number) => g[i]! < level;
  const thin = Math.max(2, Math.round(THIN * lh));
  let out: Buffer | null = null;
  const put = (i: number, v: number) => { out ??= Buffer.from(g); out[i] = v; };
  // Dark horizontal lines.
  const mark = new Uint8Array(w * h);
  // Also a share of the crop's width and height: a band's line height can be under-measured (a
  // band holding one line of a stack), and glyph strokes must never pass for lines (a synthetic
  // passport's `U` lost a stroke at 1.6 line heights and read `L` in every read alike).
  const minRun = Math.max(Math.round(DARK_RUN * lh), Math.round(0.1 * w));
  for (let y = 0; y < h; y++) {
    eachRun(w, (x) => ink(y * w + x), (x0, x) => {
      if (x - x0 >= minRun) for (let k = x0; k < x; k++) mark[y * w + k] = 1;
    });
  }
  for (let x = 0; x < w; x++) {
    eachRun(h, (y) => mark[y * w + x] !== 0, (y0, y) => {
      // Thicker than a line: a solid bar or a filled block, not an overlay line; left alone. At
      // the crop's edge: the page's or the frame's border, whose removal leaves a sliver read as `I`.
      if (y - y0 > thin || y0 <= 1 || y >= h - 1) return;
      const above = y0 - 2 >= 0 ? g[(y0 - 2) * w + x]! : 255, below = y + 1 < h ? g[(y + 1) * w + x]! : 255;
      const v = Math.max(above, below);
      for (let k = y0; k < y; k++) put(k * w + x, v);
    });
  }
  // Dark vertical lines (read from the original crop: a crossing of both is handled by each pass).
  const minRunV = Math.max(Math.round(DARK_RUN_V * lh), Math.round(0.8 * h));
  const markV = new Uint8Array(w * h);
  for (let x = 0; x < w; x++) {
    eachRun(h, (y) => ink(y * w + x), (y0, y) => {
      if (y - y0 >= minRunV) for (let k = y0; k < y; k++) markV[k * w + x] = 1;
    });
  }
  for (let y = 0; y < h; y++) {
    eachRun(w, (x) => markV[y * w + x] !== 0, (x0, x) => {
      if (x - x0 > thin || x0 <= 1 || x >= w - 1) return;
      const left = x0 - 2 >= 0 ? (out ?? g)[y * w + x0 - 2]! : 255, right = x + 1 < w ? (out ?? g)[y * w + x + 1]! : 255;
      const v = Math.max(left, right);
      for (let k = x0; k < x; k++) put(y * w + k, v);
    });
  }
  // Light lines through a text line.
  const src: Buffer = out ?? g;
  const win = Math.max(16, Math.round(WINDOW * lh));
  for (let x0 = 0; x0 < w; x0 += win) {
    const x1 = Math.min(w, x0 + win);
    const count = new Int32Array(h);
    for (let y = 0; y < h; y++) for (let x = x0; x < x1; x++) if (src[y * w + x]! < level) count[y]!++;
    const floor = 0.12 * (x1 - x0);
    for (let t = 1; t <= thin; t++) {
      for (let y = 1; y + t < h; y++) {
        const a = count[y - 1]!, b = count[y + t]!;
        if (a < floor || b < floor) continue;
        let inner = 0;
        for (let k = y; k < y + t; k++) inner = Math.max(inner, count[k]!);
        if (inner * 4 > Math.min(a, b)) continue;
        for (let k = y; k < y + t; k++) for (let x = x0; x < x1; x++) put(k * w + x, Math.min(src[(y - 1) * w + x]!, src[(y + t) * w + x]!));
        for (let k = y; k < y + t; k++) count[k] = Math.min(a, b);
      }
    }
  }
  return out ?? g;
}

/** Each maximal run of cells `on` along one line of `n` cells: `run(start, end)`, end exclusive. */
function eachRun(n: number, on: (k: number) => boolean, run: (start: number, end: number) => void): void {
  let k = 0;
  while (k < n) {
    if (!on(k)) { k++; continue; }
    const start = k;
    while (k < n && on(k)) k++;
    run(start, k);
  }
}

/** 2.6 overlay-line shape, in line heights: a dark row run (`DARK_RUN`), a dark column run (`DARK_RUN_V`), the thickest line (`THIN`), the light-line window (`WINDOW`). */
const DARK_RUN = 2.5, DARK_RUN_V = 1.6, THIN = 0.2, WINDOW = 4;

/**
 * 2.6: the read holds exactly one line of TD3 (±4) or TD1 (±3) width with a filler run in it, and
 * no second line of MRZ width: the band holds one line of a passport or ID-card MRZ. TD2 widths are left out: a
 * vendor illustration re-printing a TD3 MRZ shortened (38 characters) looked like one, and its grown
 * read then spent the retry reads of a band the right way up (tuning: Swiss specimen, 0.9 → 2.5 s).
 */
export function loneMrzLine(raw: OcrLine[]): 'TD3' | 'TD1' | null {
  const ls = raw.map((l) => norm(l.text)).filter((t) => t.length >= 24 && t.length <= 50);
  if (ls.length !== 1 || !/<<</.test(ls[0]!)) return null;
  const n = ls[0]!.length;
  return Math.abs(n - 44) <= 4 ? 'TD3' : Math.abs(n - 30) <= 3 ? 'TD1' : null;
}

/** Otsu's level of a grey buffer. */
/**
 * 2.8 (`splitLines`): a band crop cut into its two or three text lines, each with a margin of a
 * third of its height (never into its neighbour), for one tesseract read per line. Rows are
 * counted on the flattened crop; a row whose longest dark run is half the crop's width or more is
 * a printed rule or a border and counts as empty. Null unless two or three lines of like height
 * stand out (not an MRZ band, or one tesseract already splits).
 */
export async function splitTextLines(png: Buffer): Promise<Buffer[] | null> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const w = info.width, h = info.height;
  if (w < 32 || h < 16) return null;
  const g = flattenBackground(data, w, h);
  const level = otsuLevel(g);
  const rows = new Float64Array(h);
  for (let y = 0; y < h; y++) {
    let n = 0, run = 0, longest = 0;
    for (let x = 0; x < w; x++) {
      if (g[y * w + x]! < level) { n++; run++; if (run > longest) longest = run; } else run = 0;
    }
    rows[y] = longest >= 0.5 * w ? 0 : n;
  }
  const peak = Math.max(...rows);
  if (!(peak > 0)) return null;
  const runs: { a: number; b: number; mass: number }[] = [];
  let a = -1, mass = 0, gap = 0;
  for (let y = 0; y <= h; y++) {
    const on = y < h && rows[y]! > 0.12 * peak;
    if (on) { if (a < 0) { a = y; mass = 0; } mass += rows[y]!; gap = 0; continue; }
    // Bridge a one- or two-row gap (a rule taken out through a line's descenders).
    if (a >= 0 && y < h && gap < 2) { gap++; continue; }
    if (a >= 0) runs.push({ a, b: y - gap - 1, mass });
    a = -1; gap = 0;
  }
  const tall = runs.filter((r) => r.b - r.a + 1 >= 4);
  if (tall.length < 2) return null;
  const heights = tall.map((r) => r.b - r.a + 1).sort((p, q) => q - p);
  const kept = tall.filter((r) => r.b - r.a + 1 >= 0.6 * heights[0]!).sort((p, q) => q.mass - p.mass).slice(0, 3).sort((p, q) => p.a - q.a);
  if (kept.length < 2 || kept.some((r) => r.b - r.a + 1 < 0.6 * heights[0]!)) return null;
  return Promise.all(kept.map((r, i) => {
    const lh = r.b - r.a + 1, m = Math.round(lh / 3);
    const top = Math.max(0, r.a - m, i > 0 ? kept[i - 1]!.b + 1 : 0);
    const bottom = Math.min(h - 1, r.b + m, i + 1 < kept.length ? kept[i + 1]!.a - 1 : h - 1);
    return sharp(data, { raw: { width: w, height: h, channels: 1 } }).extract({ left: 0, top, width: w, height: bottom - top + 1 }).png(CROP_PNG).toBuffer();
  }));
}

function otsuLevel(g: Buffer): number {
  const hist = new Float64Array(256);
  for (let i = 0; i < g.length; i += 1) hist[g[i]!]! += 1;
  let sum = 0;
  for (let v = 0; v < 256; v++) sum += v * hist[v]!;
  let w0 = 0, s0 = 0, best = 0, level = 128;
  for (let v = 0; v < 256; v++) {
    w0 += hist[v]!; s0 += v * hist[v]!;
    if (w0 === 0 || w0 === g.length) continue;
    const m0 = s0 / w0, m1 = (sum - s0) / (g.length - w0);
    const between = w0 * (g.length - w0) * (m0 - m1) ** 2;
    if (between > best) { best = between; level = v + 1; }
  }
  return level;
}
