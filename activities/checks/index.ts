import { unavailableOutcome, type TCheckSummary } from '../../domain/checks.js';
import type { ActivityDeps } from '../deps.js';
import { saveOutcome } from '../check-store.js';
import { loadCaseInputs } from '../case-inputs.js';
import { withHeartbeat } from '../heartbeat.js';
import { CheckResult, FlowVersion } from '../../db/entities/index.js';
import { recordMatch, recordMatchSettingsOf, RECORD_MATCH_COMPONENT, type Collected } from './record-match.js';

/**
 * The check activities. Each loads its inputs (PII) from the database and blob store, runs its
 * engine with the Case's stamped engine profile, stores the full outcome, and returns only the
 * PII-free summary. An engine that is not part of this build reports `unavailable`, which the
 * decision policy turns into `assessment_incomplete`.
 */
export function createCheckActivities(deps: ActivityDeps) {
  const em = () => deps.orm.em.fork();
  return {
    async runDocumentChecks(caseId: string): Promise<TCheckSummary[]> {
      return withHeartbeat(async () => {
        const e = em();
        await loadCaseInputs(e, deps.blobs, caseId);
        return [
          await saveOutcome(e, caseId, unavailableOutcome('document_ocr', 'platform', 'engine_not_in_build')),
          await saveOutcome(e, caseId, unavailableOutcome('template_match', 'platform', 'engine_not_in_build')),
        ];
      });
    },
    async runAuthenticityCheck(caseId: string): Promise<TCheckSummary> {
      return withHeartbeat(async () => {
        const e = em();
        await loadCaseInputs(e, deps.blobs, caseId);
        return saveOutcome(e, caseId, unavailableOutcome('authenticity', 'platform', 'engine_not_in_build'));
      });
    },
    async runLivenessCheck(caseId: string): Promise<TCheckSummary> {
      return withHeartbeat(async () => {
        const e = em();
        await loadCaseInputs(e, deps.blobs, caseId);
        return saveOutcome(e, caseId, unavailableOutcome('liveness', 'platform', 'engine_not_in_build'));
      });
    },
    async runFaceMatch(caseId: string): Promise<TCheckSummary> {
      return withHeartbeat(async () => {
        const e = em();
        await loadCaseInputs(e, deps.blobs, caseId);
        return saveOutcome(e, caseId, unavailableOutcome('face_match', 'platform', 'engine_not_in_build'));
      });
    },
    /** Record match is evidence only; without a claimed record or a record-match piece there is nothing to compare. */
    async runRecordMatch(caseId: string): Promise<TCheckSummary> {
      const e = em();
      const inputs = await loadCaseInputs(e, deps.blobs, caseId);
      const v = inputs.verification;
      const flowVersion = v.flowId ? await e.findOne(FlowVersion, { flowId: v.flowId, version: v.flowVersionRef! }) : null;
      const settings = recordMatchSettingsOf(flowVersion?.definition ?? null);
      if (!v.claimed || !settings) {
        return saveOutcome(e, caseId, { check: 'record_match', status: 'not_applicable', reasons: [v.claimed ? 'record_match_not_in_flow' : 'no_claimed_record'], score: null, component: RECORD_MATCH_COMPONENT, models: [], evidence: {}, duration_ms: 0 });
      }
      const ocr = await e.findOne(CheckResult, { verificationId: caseId, check: 'document_ocr' });
      const collected = ((ocr?.evidence as { extracted?: Collected } | undefined)?.extracted ?? {}) as Collected;
      return saveOutcome(e, caseId, recordMatch(settings, collected, v.claimed));
    },
  };
}
