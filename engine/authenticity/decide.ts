import type { SampleLabel } from './labels.js';
import type { ClassifierOutput } from './model/classifier.js';
import type { AuthenticitySettings } from './settings.js';
import { signal, type Signal, type SignalCode } from './signals.js';
import type { TCheckStatus } from '../../domain/checks.js';

/**
 * From signals to the check's status, reasons and risk score.
 *  - status: `failed` if any strong signal, `review` if any weak one, else `passed`;
 *  - reasons: the distinct signal codes, strong ones first (PII-free by construction);
 *  - score (risk): the classifier's 1 − P(clean), combined noisy-OR with the rule-based
 *    signals (strong 0.5, weak 0.15), so that a strong metadata finding raises the risk even
 *    when the pixels look clean. With `floors` (settings v4 on) the score also never ranks
 *    below the status: a `failed` result scores at least `floors.strong` (the model's own strong
 *    threshold) and a `review` one at least `floors.review`, so that ranking by score and
 *    sorting by status agree.
 */
const MODEL_CODES: Record<Exclude<SampleLabel, 'clean'>, SignalCode> = {
  splice_portrait: 'tampering_suspected',
  edit_text: 'tampering_suspected',
  editor_resave: 'editor_resave_suspected',
  screen_recapture: 'screen_recapture_suspected',
  print_recapture: 'print_recapture_suspected',
};

const RULE_WEIGHT = { strong: 0.5, weak: 0.15 } as const;

export function modelSignal(output: ClassifierOutput, settings: AuthenticitySettings): { risk: number; signal: Signal | null } {
  const p = output.probabilities;
  const risk = Math.min(1, Math.max(0, 1 - p.clean));
  if (risk < settings.modelReviewThreshold) return { risk, signal: null };
  // The attack family with the most mass names the reason; tampering sums its two families.
  const byCode = new Map<SignalCode, number>();
  for (const [label, code] of Object.entries(MODEL_CODES) as [Exclude<SampleLabel, 'clean'>, SignalCode][]) {
    byCode.set(code, (byCode.get(code) ?? 0) + p[label]);
  }
  const [code, mass] = [...byCode.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const strength = risk >= settings.modelStrongThreshold ? 'strong' : 'weak';
  return {
    risk,
    signal: signal(code, strength, 'model', { risk: round3(risk), class_mass: round3(mass) }),
  };
}

export function decide(
  signals: Signal[],
  modelRisk: number | null,
  floors?: { review: number; strong: number },
): { status: TCheckStatus; reasons: string[]; score: number } {
  let keep = 1 - (modelRisk ?? 0);
  for (const s of signals) if (s.source !== 'model') keep *= 1 - RULE_WEIGHT[s.strength];
  const strong = signals.filter((s) => s.strength === 'strong');
  const status: TCheckStatus = strong.length ? 'failed' : signals.length ? 'review' : 'passed';
  const reasons = [...new Set([...strong, ...signals.filter((s) => s.strength === 'weak')].map((s) => s.code))];
  let score = 1 - keep;
  if (floors) score = Math.max(score, status === 'failed' ? floors.strong : status === 'review' ? floors.review : 0);
  return { status, reasons, score: round3(score) };
}

export function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
