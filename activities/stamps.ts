import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import { POLICY_REVISIONS } from '../domain/policy.js';
import { ENGINE_PROFILES, type EngineProfile } from '../engine/profiles.js';

/**
 * Stamps are exact: a Case runs with the engine profile and decides with the policy revision it
 * was stamped with at creation, or not at all. A worker that does not know a stamp cannot honour
 * it, and retrying will not teach it, so both lookups fail non-retryably (the Case ends `failed`
 * with the code as its reason) and the worker checks the live Cases' stamps before it starts.
 */
export function stampedProfile(id: string): EngineProfile {
  const p = ENGINE_PROFILES[id];
  if (!p) throw ApplicationFailure.create({ type: 'unknown_engine_profile', message: `this worker does not have engine profile ${id}`, nonRetryable: true });
  return p;
}

export function assertKnownPolicyRevision(id: string): void {
  if (!POLICY_REVISIONS[id]) throw ApplicationFailure.create({ type: 'unknown_policy_revision', message: `this worker does not have policy revision ${id}`, nonRetryable: true });
}

export interface UnhonouredStamp {
  kind: 'engine_profile' | 'policy_revision';
  id: string;
  /** Non-terminal Cases carrying it. */
  cases: number;
}

/** Statuses in which a Case may still run a check or a decision. */
const LIVE = ['collecting', 'pending', 'processing'];

/** Every engine profile and policy revision stamped on a live Case that this build cannot run. */
export async function unhonouredStamps(em: EntityManager): Promise<UnhonouredStamp[]> {
  const rows = await em.getConnection().execute<{ engine_profile: string; policy_revision: string; cases: number }[]>(
    `select engine_profile, policy_revision, count(*)::int as cases from verifications where status in (${LIVE.map(() => '?').join(', ')}) group by engine_profile, policy_revision`,
    LIVE,
  );
  const out = new Map<string, UnhonouredStamp>();
  const add = (kind: UnhonouredStamp['kind'], id: string, n: number) => {
    const key = `${kind}:${id}`;
    const prev = out.get(key);
    out.set(key, { kind, id, cases: (prev?.cases ?? 0) + n });
  };
  for (const r of rows) {
    if (!ENGINE_PROFILES[r.engine_profile]) add('engine_profile', r.engine_profile, Number(r.cases));
    if (!POLICY_REVISIONS[r.policy_revision]) add('policy_revision', r.policy_revision, Number(r.cases));
  }
  return [...out.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.id.localeCompare(b.id));
}

/** The message a worker prints when it refuses to start. */
export function describeUnhonoured(stamps: UnhonouredStamp[]): string {
  return `this worker cannot honour the stamps of live Cases: ${stamps.map((s) => `${s.kind} ${s.id} (${s.cases} case${s.cases === 1 ? '' : 's'})`).join(', ')}. `
    + 'Deploy a build that has them (released profiles and revisions are never removed), or erase those Cases.';
}
