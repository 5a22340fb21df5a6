import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/** One check's full outcome for a Case. `evidence` may hold PII and is deleted on erasure. */
export const CheckResult = defineEntity({
  name: 'CheckResult',
  tableName: 'check_results',
  uniques: [{ properties: ['verificationId', 'check'] }],
  properties: {
    id: p.string().length(40).primary(),
    verificationId: p.string().length(40),
    check: p.string().length(32),
    status: p.string().length(16),
    reasons: p.json<string[]>(),
    score: p.double().nullable(),
    component: p.string().length(80),
    models: p.json<{ name: string; sha256: string }[]>(),
    evidence: p.json<Record<string, unknown>>(),
    durationMs: p.integer(),
    createdAt: p.datetime(),
  },
});
export type ICheckResult = InferEntity<typeof CheckResult>;
