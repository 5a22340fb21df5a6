import type { TCheckName, TCheckSummary } from './checks.js';

export const ASSESSMENTS = ['no_material_concerns', 'manual_review_recommended', 'material_inconsistency', 'assessment_incomplete'] as const;
export type TAssessment = (typeof ASSESSMENTS)[number];

export interface Decision {
  assessment: TAssessment;
  confidence: number;
  summary_reasons: string[];
}

/** Scores are confidences for these checks, and risks (higher = worse) for the others. */
const RISK_SCORED: ReadonlySet<TCheckName> = new Set(['authenticity']);

interface PolicyRevision {
  id: string;
  description: string;
  /** Checks whose absence or unavailability makes the assessment incomplete. */
  required: readonly TCheckName[];
  /** Checks that are evidence only and never change the assessment (spec: record match). */
  advisoryOnly: readonly TCheckName[];
  /** Reasons that floor the outcome at manual review even when every check passed. */
  floorAtReview: readonly string[];
  /**
   * Reasons that may recommend review but never make a Case materially inconsistent on their own:
   * a `failed` check whose reasons are all in this list counts as `review`.
   */
  capAtReview: readonly string[];
}

/**
 * Released decision-policy revisions. Immutable: a change is a new id, and every Case keeps the
 * id it was created with, so re-running a Case with its stamps gives the same assessment.
 *
 * dp-2026.11-1, in order:
 *  1. capture expired → assessment_incomplete (`capture_expired`).
 *  2. a required check missing or `unavailable` → assessment_incomplete, with `<check>_unavailable`
 *     and any concern the other checks found, so nothing pretends to pass and nothing is hidden.
 *  3. any `failed` check (strong evidence: expired document, check-digit or visual/MRZ
 *     mismatch, strong tampering or recapture, liveness or face mismatch) → material_inconsistency.
 *  4. any `review` check (weak evidence, e.g. weak metadata signals) or a floor reason such as
 *     `uncalibrated_document_scope` → manual_review_recommended.
 *  5. otherwise no_material_concerns.
 *  Record match is evidence only and never changes the assessment.
 *
 *  How engine findings reach steps 3 and 4 (each engine marks strong evidence `failed`, weak `review`):
 *  - authenticity: strong `screen_recapture_suspected`, `print_recapture_suspected`,
 *    `editing_software_detected` (a pixel editor) or `thumbnail_inconsistent` →
 *    material_inconsistency; `tampering_suspected` alone (the learned classifier) is capped at
 *    manual review in this revision (see capAtReview); weak `metadata_inconsistent`,
 *    `capture_time_inconsistent`, `editor_quantization_detected`, `double_compression_detected`,
 *    `copy_move_detected` or a weak model finding → manual review. (A strong re-save finding
 *    alone is material here; dp-2026.11-2 caps it at review.)
 *  - document: check-digit, visual/MRZ, expiry, issuing-state and applicant-data mismatches are
 *    strong; LOW-confidence template facts are weak (DOCUMENT_FACTS.md).
 *  - liveness and face match: challenge incomplete, illumination mismatch, presentation attack,
 *    identity inconsistent and face mismatch are strong; multiple faces or no face are weak.
 */
export const POLICY_REVISIONS: Readonly<Record<string, PolicyRevision>> = {
  'dp-2026.11-1': {
    id: 'dp-2026.11-1',
    description: 'Unavailable required check → incomplete; failed → material; review or uncalibrated scope → manual review.',
    required: ['document_ocr', 'template_match', 'authenticity', 'liveness', 'face_match'],
    advisoryOnly: ['record_match'],
    floorAtReview: ['uncalibrated_document_scope'],
    // The learned tamper classifier is trained on synthetic captures only and measurably shifts
    // with the capture pipeline (genuine renders JPEG-encoded differently score as tampered): until
    // it is calibrated on real captures, its finding alone recommends review. Recapture and
    // editing-software findings keep their strength.
    capAtReview: ['tampering_suspected'],
  },
  // dp-2026.11-2: as dp-2026.11-1, and a re-save alone is not a forgery: the learned
  // `editor_resave_suspected` finding alone is capped at review too (dp-2026.11-1's notes said so,
  // its list did not). A PNG/WebP document photo (`not_camera_jpeg`, weak) → manual review.
  'dp-2026.11-2': {
    id: 'dp-2026.11-2',
    description: 'As dp-2026.11-1; the learned re-save finding alone is also capped at manual review.',
    required: ['document_ocr', 'template_match', 'authenticity', 'liveness', 'face_match'],
    advisoryOnly: ['record_match'],
    floorAtReview: ['uncalibrated_document_scope'],
    capAtReview: ['tampering_suspected', 'editor_resave_suspected'],
  },
  // dp-2026.11-3: as dp-2026.11-2, for engine profile ep-2026.11-3, whose authenticity engine can
  // call `double_compression_detected` strong (an earlier JPEG save on another 8×8 grid: the file
  // was cropped or shifted and saved again). That proves a re-save, not a forgery: alone it is
  // capped at review like the learned re-save finding.
  'dp-2026.11-3': {
    id: 'dp-2026.11-3',
    description: 'As dp-2026.11-2; a strong double-compression finding alone is also capped at manual review.',
    required: ['document_ocr', 'template_match', 'authenticity', 'liveness', 'face_match'],
    advisoryOnly: ['record_match'],
    floorAtReview: ['uncalibrated_document_scope'],
    capAtReview: ['tampering_suspected', 'editor_resave_suspected', 'double_compression_detected'],
  },
  // dp-2026.11-4: as dp-2026.11-3, for engine profile ep-2026.11-4, whose authenticity engine can
  // call `editor_quantization_detected` strong (the file's quantisation tables come from a family
  // that cameras do not write: software saved it last). That proves a re-save by software, not a
  // forgery: alone it is capped at review like the other re-save findings.
  'dp-2026.11-4': {
    id: 'dp-2026.11-4',
    description: 'As dp-2026.11-3; a strong editor-quantisation finding alone is also capped at manual review.',
    required: ['document_ocr', 'template_match', 'authenticity', 'liveness', 'face_match'],
    advisoryOnly: ['record_match'],
    floorAtReview: ['uncalibrated_document_scope'],
    capAtReview: ['tampering_suspected', 'editor_resave_suspected', 'double_compression_detected', 'editor_quantization_detected'],
  },
};

export const CURRENT_POLICY_REVISION = 'dp-2026.11-4';

function support(s: TCheckSummary): number | null {
  if (s.score === null) return null;
  return RISK_SCORED.has(s.check) ? 1 - s.score : s.score;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

function uniq(xs: string[]): string[] {
  return [...new Set(xs)];
}

/**
 * Pure and deterministic: the same revision and summaries always give the same decision.
 * Confidence is how strongly the evidence supports the assessment: for a clean result the
 * weakest support among the checks; for a material inconsistency the strongest failing evidence;
 * for manual review the midpoint of the weakest support; 0 when incomplete.
 */
export function decide(revisionId: string, summaries: TCheckSummary[], opts: { captureExpired?: boolean } = {}): Decision {
  const rev = POLICY_REVISIONS[revisionId];
  if (!rev) throw new Error(`unknown policy revision ${revisionId}`);
  if (opts.captureExpired) return { assessment: 'assessment_incomplete', confidence: 0, summary_reasons: ['capture_expired'] };

  const counted = summaries
    .filter((s) => !rev.advisoryOnly.includes(s.check))
    .map((s) => (s.status === 'failed' && s.reasons.length > 0 && s.reasons.every((r) => rev.capAtReview.includes(r)) ? { ...s, status: 'review' as const } : s));
  const byCheck = new Map(counted.map((s) => [s.check, s] as const));
  const unavailable = rev.required.filter((c) => !byCheck.has(c) || byCheck.get(c)!.status === 'unavailable');
  const failed = counted.filter((s) => s.status === 'failed');
  const review = counted.filter((s) => s.status === 'review');
  const concernReasons = uniq([...failed, ...review].flatMap((s) => s.reasons));

  if (unavailable.length > 0) {
    const unavailableReasons = unavailable.flatMap((c) => byCheck.get(c)?.reasons ?? []);
    return {
      assessment: 'assessment_incomplete',
      confidence: 0,
      summary_reasons: uniq([...unavailable.map((c) => `${c}_unavailable`), ...unavailableReasons, ...concernReasons]),
    };
  }
  if (failed.length > 0) {
    const strengths = failed.map(support).filter((x): x is number => x !== null).map((x) => 1 - x);
    return {
      assessment: 'material_inconsistency',
      confidence: round(strengths.length ? Math.max(...strengths, 0.5) : 0.8),
      summary_reasons: concernReasons,
    };
  }
  const floor = counted.flatMap((s) => s.reasons).filter((r) => rev.floorAtReview.includes(r));
  const supports = counted.map(support).filter((x): x is number => x !== null);
  const weakest = supports.length ? Math.min(...supports) : 0.5;
  if (review.length > 0 || floor.length > 0) {
    return { assessment: 'manual_review_recommended', confidence: round(0.5 + weakest / 2), summary_reasons: uniq([...concernReasons, ...floor]) };
  }
  return { assessment: 'no_material_concerns', confidence: round(weakest), summary_reasons: [] };
}
