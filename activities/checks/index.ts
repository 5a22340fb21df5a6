import { ApplicationFailure } from '@temporalio/common';
import { unavailableOutcome, type TCheckOutcome, type TCheckSummary } from '../../domain/checks.js';
import { ZLivenessChallenge, ZLivenessFrameMeta } from '../../domain/liveness.js';
import { CheckResult, FlowVersion } from '../../db/entities/index.js';
import { createAuthenticityEngine, type AuthenticityEngine } from '../../engine/authenticity/index.js';
import { createDocumentEngine, type DocumentEngine } from '../../engine/document/index.js';
import { createFaceEngine, type FaceEngine } from '../../engine/faces/index.js';
import { startEngineThread } from '../../engine/engine-thread.js';
import type { ActivityDeps } from '../deps.js';
import { saveOutcome, saveOutcomes } from '../check-store.js';
import { loadCaseInputs, type CaseInputs } from '../case-inputs.js';
import { storeDerived } from '../derived-uploads.js';
import { withHeartbeat } from '../heartbeat.js';
import { stampedProfile } from '../stamps.js';
import { recordMatch, recordMatchSettingsOf, RECORD_MATCH_COMPONENT, type Collected } from './record-match.js';

// The engines' async methods, forwarded to their threads (checked against the interfaces by the compiler).
const DOCUMENT_ENGINE_METHODS = ['analyze', 'scanMrz', 'quickQuality'] as const satisfies readonly (keyof DocumentEngine)[];
const FACE_ENGINE_METHODS = ['evaluateLiveness', 'matchFaces'] as const satisfies readonly (keyof FaceEngine)[];
const AUTHENTICITY_ENGINE_METHODS = ['analyze'] as const satisfies readonly (keyof AuthenticityEngine)[];

const RANK: Record<string, number> = { failed: 3, review: 2, passed: 1, not_applicable: 0, unavailable: 4 };

/** Document-level applicant data for the document engine; a full name alone cannot be split reliably, so names are then left to record match. */
function applicantFor(inputs: CaseInputs) {
  const a = (inputs.verification.applicant ?? {}) as Record<string, string | undefined>;
  return { given_names: a.given_names, surnames: a.surnames, date_of_birth: a.date_of_birth, document_number: a.document_number };
}

/**
 * The check activities. Each loads its inputs (PII) from the database and blob store, runs its
 * engine with the Case's stamped engine profile, stores the full outcome, and returns only the
 * PII-free summary. An engine that cannot start reports `unavailable`, which the decision policy
 * turns into `assessment_incomplete`: never a pass.
 */
/** The engines of a profile, from the worker's registry (one instance per engine and profile). */
function engineSlots(deps: ActivityDeps) {
  // An unknown profile id fails the activity non-retryably (stampedProfile) before any engine is looked up.
  // Each engine in a thread of its own (engine/engine-thread.ts: they would otherwise take turns on
  // the event loop), unless ENGINE_THREADS=off.
  const threads = deps.config.engineThreads;
  return {
    documentEngine: (profileId: string) => {
      const profile = stampedProfile(profileId);
      return deps.engines.get<DocumentEngine>(`document:${profileId}`, () =>
        threads ? startEngineThread<DocumentEngine>('document', profileId, DOCUMENT_ENGINE_METHODS) : createDocumentEngine(profile.document));
    },
    faceEngine: (profileId: string) => {
      const profile = stampedProfile(profileId);
      return deps.engines.get<FaceEngine>(`faces:${profileId}`, () =>
        threads ? startEngineThread<FaceEngine>('faces', profileId, FACE_ENGINE_METHODS) : createFaceEngine(profile.faces));
    },
    authenticityEngine: (profileId: string) => {
      const profile = stampedProfile(profileId);
      return deps.engines.get<AuthenticityEngine>(`authenticity:${profileId}`, () =>
        threads ? startEngineThread<AuthenticityEngine>('authenticity', profileId, AUTHENTICITY_ENGINE_METHODS) : createAuthenticityEngine(profile.authenticity));
    },
  };
}

/**
 * Starts a profile's three engines in the same slots the checks use (so the first Case does not
 * pay for it) and reports, per engine, whether it started or why not; the worker publishes this
 * for `/readyz`.
 */
export async function startEngines(deps: ActivityDeps, profileId: string): Promise<Record<'document' | 'faces' | 'authenticity', { ok: boolean; reason?: string }>> {
  const slots = engineSlots(deps);
  const view = (s: { ok: true } | { ok: false; reason: string }) => (s.ok ? { ok: true } : { ok: false, reason: s.reason });
  const [document, faces, authenticity] = await Promise.all([slots.documentEngine(profileId), slots.faceEngine(profileId), slots.authenticityEngine(profileId)]);
  return { document: view(document), faces: view(faces), authenticity: view(authenticity) };
}

export function createCheckActivities(deps: ActivityDeps) {
  const em = () => deps.orm.em.fork();
  const { documentEngine, faceEngine, authenticityEngine } = engineSlots(deps);

  return {
    async runDocumentChecks(caseId: string): Promise<TCheckSummary[]> {
      return withHeartbeat(async () => {
        const e = em();
        const inputs = await loadCaseInputs(e, deps.blobs, caseId);
        const v = inputs.verification;
        const front = inputs.first('document_front');
        if (!front || !v.declaredDocument) throw ApplicationFailure.create({ type: 'case_inputs_missing', message: 'no document image', nonRetryable: true });
        const slot = await documentEngine(v.engineProfile);
        if (!slot.ok) {
          return saveOutcomes(e, caseId, [unavailableOutcome('document_ocr', 'document-engine', slot.reason), unavailableOutcome('template_match', 'document-engine', slot.reason)]);
        }
        const back = inputs.first('document_back');
        const r = await slot.engine.analyze({
          front: await inputs.bytes(front),
          back: back ? await inputs.bytes(back) : undefined,
          declared: v.declaredDocument as { country: string; type: 'passport' },
          accepted: v.acceptedDocuments,
          applicant: applicantFor(inputs),
          now: v.submittedAt ?? new Date(),
        });
        if (r.normalized) await storeDerived(e, deps.blobs, caseId, 'document_normalized', r.normalized, r.portrait ? { portrait: r.portrait } : null);
        // Record match reads the collected identity data from here.
        const ocr: TCheckOutcome = { ...r.ocr, evidence: { ...r.ocr.evidence, extracted: r.extracted, tier: r.tier } };
        return saveOutcomes(e, caseId, [ocr, r.template]);
      });
    },

    async runAuthenticityCheck(caseId: string): Promise<TCheckSummary> {
      return withHeartbeat(async () => {
        const e = em();
        const inputs = await loadCaseInputs(e, deps.blobs, caseId);
        const v = inputs.verification;
        const slot = await authenticityEngine(v.engineProfile);
        if (!slot.ok) return saveOutcome(e, caseId, unavailableOutcome('authenticity', 'authenticity-engine', slot.reason));
        const outcomes: TCheckOutcome[] = [];
        for (const kind of ['document_front', 'document_back'] as const) {
          const u = inputs.first(kind);
          if (!u) continue;
          try {
            outcomes.push(await slot.engine.analyze({ bytes: await inputs.bytes(u), kind, sessionStartedAt: v.createdAt, submittedAt: v.submittedAt ?? undefined }));
          } catch (err) {
            // The image could not be analysed: the check says so (`unavailable`, never a pass) and the log says why.
            const code = (err as { code?: string }).code ?? 'authenticity_error';
            deps.log.warn({ caseId, kind, code, err: (err as Error).message?.slice(0, 200) }, 'authenticity analysis failed; check unavailable for this image');
            outcomes.push(unavailableOutcome('authenticity', 'authenticity-engine', code));
          }
        }
        if (outcomes.length === 0) return saveOutcome(e, caseId, unavailableOutcome('authenticity', 'authenticity-engine', 'no_document_image'));
        // The Case is as authentic as its least authentic image.
        const worst = outcomes.reduce((a, b) => (RANK[b.status]! > RANK[a.status]! ? b : a));
        const combined: TCheckOutcome = {
          ...worst,
          reasons: [...new Set(outcomes.flatMap((o) => o.reasons))],
          score: outcomes.some((o) => o.score !== null) ? Math.max(...outcomes.map((o) => o.score ?? 0)) : null,
          evidence: { images: outcomes.map((o, i) => ({ kind: i === 0 ? 'document_front' : 'document_back', status: o.status, reasons: o.reasons, score: o.score, evidence: o.evidence })) },
          duration_ms: outcomes.reduce((s, o) => s + o.duration_ms, 0),
        };
        return saveOutcome(e, caseId, combined);
      });
    },

    async runLivenessCheck(caseId: string): Promise<TCheckSummary> {
      return withHeartbeat(async () => {
        const e = em();
        const inputs = await loadCaseInputs(e, deps.blobs, caseId);
        const v = inputs.verification;
        const challenge = ZLivenessChallenge.safeParse(v.livenessChallenge);
        const uploads = inputs.all('liveness_frame');
        if (!challenge.success || uploads.length === 0) {
          return saveOutcome(e, caseId, unavailableOutcome('liveness', 'face-engine', 'liveness_not_captured'));
        }
        const slot = await faceEngine(v.engineProfile);
        if (!slot.ok) return saveOutcome(e, caseId, unavailableOutcome('liveness', 'face-engine', 'liveness_unavailable', slot.reason));
        const frames = [];
        for (const u of uploads) {
          const meta = ZLivenessFrameMeta.safeParse(u.meta);
          if (meta.success) frames.push({ image: await inputs.bytes(u), meta: meta.data });
        }
        frames.sort((a, b) => a.meta.timestamp_ms - b.meta.timestamp_ms);
        const r = await slot.engine.evaluateLiveness({ frames, challenge: challenge.data, now: v.submittedAt ?? new Date() });
        if (r.bestFrame) await storeDerived(e, deps.blobs, caseId, 'liveness_best', r.bestFrame, null);
        return saveOutcome(e, caseId, r.outcome);
      });
    },

    async runFaceMatch(caseId: string): Promise<TCheckSummary> {
      return withHeartbeat(async () => {
        const e = em();
        const inputs = await loadCaseInputs(e, deps.blobs, caseId);
        const selfie = inputs.first('liveness_best') ?? inputs.first('selfie');
        const document = inputs.first('document_normalized') ?? inputs.first('document_front');
        if (!selfie || !document) return saveOutcome(e, caseId, unavailableOutcome('face_match', 'face-engine', 'no_selfie_captured'));
        const slot = await faceEngine(inputs.verification.engineProfile);
        if (!slot.ok) return saveOutcome(e, caseId, unavailableOutcome('face_match', 'face-engine', 'liveness_unavailable', slot.reason));
        const portraitBox = document.kind === 'document_normalized' ? ((document.meta as { portrait?: { x: number; y: number; width: number; height: number } } | null)?.portrait ?? undefined) : undefined;
        return saveOutcome(e, caseId, await slot.engine.matchFaces({ selfie: await inputs.bytes(selfie), document: await inputs.bytes(document), portraitBox }));
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

