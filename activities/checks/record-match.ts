import { ZTemplateDefinition, pieceOf, type TIdentityField, type TRecordMatchSettings } from '../../domain/primitives.js';
import type { TCheckOutcome } from '../../domain/checks.js';
import { compareExact, compareNames, normalizeName, parseDate, type FieldComparison } from '../../engine/document/compare.js';

export const RECORD_MATCH_COMPONENT = 'record-match@1';

/** Identity data read from the document, as the document check stored it. */
export type Collected = Partial<Record<TIdentityField, string>>;

function claimedName(claimed: Record<string, unknown>): string | undefined {
  const s = (k: string) => (typeof claimed[k] === 'string' ? (claimed[k] as string) : undefined);
  return s('full_name') ?? s('name') ?? ([s('given_names'), s('surnames')].filter(Boolean).join(' ') || undefined);
}
function claimedValue(claimed: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const k of keys) if (typeof claimed[k] === 'string' && claimed[k]) return claimed[k] as string;
  return undefined;
}

const REASON: Record<string, string> = {
  full_name: 'record_name_divergence',
  given_names: 'record_name_divergence',
  surnames: 'record_name_divergence',
  date_of_birth: 'record_date_of_birth_divergence',
  document_number: 'record_number_divergence',
};

function compareField(field: TIdentityField, collected: string | undefined, claimed: string | undefined, operator: 'equals' | 'contains'): FieldComparison {
  if (!collected || !claimed) return { field, verdict: 'unverified', score: 0 };
  if (field === 'date_of_birth') return compareExact(field, parseDate(collected) ?? collected, parseDate(claimed) ?? claimed);
  if (field === 'document_number') {
    if (operator === 'contains') {
      const ok = collected.toUpperCase().replace(/[\s\-.]/g, '').includes(claimed.toUpperCase().replace(/[\s\-.]/g, ''));
      return { field, verdict: ok ? 'match' : 'mismatch', score: ok ? 1 : 0 };
    }
    return compareExact(field, collected, claimed);
  }
  if (operator === 'contains') {
    const ok = normalizeName(collected).includes(normalizeName(claimed));
    return { field, verdict: ok ? 'match' : 'mismatch', score: ok ? 1 : 0 };
  }
  return compareNames(field, collected, claimed, { match: 0.92, mismatch: 0.75 });
}

/**
 * Record match: read-only evidence comparing what the document says with the integrator's
 * claimed record. It flags divergences (`review`) but the decision policy never lets it change
 * the assessment. Values stay in `evidence` (PII); reasons are codes.
 */
export function recordMatch(settings: TRecordMatchSettings, collected: Collected, claimed: Record<string, unknown>): TCheckOutcome {
  const started = performance.now();
  const comparisons: (FieldComparison & { claimed_key?: string; operator: string })[] = [];
  if (settings.mode === 'simple_match') {
    const name = collected.full_name ?? ([collected.given_names, collected.surnames].filter(Boolean).join(' ') || undefined);
    comparisons.push({ ...compareField('full_name', name, claimedName(claimed), 'equals'), operator: 'equals' });
    comparisons.push({ ...compareField('date_of_birth', collected.date_of_birth, claimedValue(claimed, 'date_of_birth', 'dob', 'birth_date'), 'equals'), operator: 'equals' });
    comparisons.push({ ...compareField('document_number', collected.document_number, claimedValue(claimed, 'document_number', 'id_number', 'number'), 'equals'), operator: 'equals' });
  } else {
    for (const r of settings.rules) {
      const value = claimed[r.claimed_key];
      comparisons.push({ ...compareField(r.collected, collected[r.collected], typeof value === 'string' ? value : value === undefined ? undefined : String(value), r.operator), claimed_key: r.claimed_key, operator: r.operator });
    }
  }
  const compared = comparisons.filter((c) => c.verdict !== 'unverified');
  const divergent = comparisons.filter((c) => c.verdict === 'mismatch' || c.verdict === 'partial');
  const reasons = [...new Set(divergent.map((c) => REASON[c.field] ?? 'record_divergence'))];
  const status = compared.length === 0 ? 'unavailable' : divergent.length ? 'review' : 'passed';
  return {
    check: 'record_match',
    status,
    reasons: compared.length === 0 ? ['record_match_nothing_to_compare'] : reasons,
    score: compared.length ? Math.min(...compared.map((c) => c.score)) : null,
    component: RECORD_MATCH_COMPONENT,
    models: [],
    evidence: { mode: settings.mode, comparisons },
    duration_ms: performance.now() - started,
  };
}

/** The record-match settings of a Flow version, or simple match for Cases created without a Flow. */
export function recordMatchSettingsOf(definition: unknown): TRecordMatchSettings | null {
  if (!definition) return { mode: 'simple_match' };
  const d = ZTemplateDefinition.parse(definition);
  return pieceOf(d, 'record_match')?.settings ?? null;
}
