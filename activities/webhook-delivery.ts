import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { TWebhookEnvelope } from '../domain/api-schemas.js';
import { newId } from '../domain/ids.js';
import { CaseDisposition, Project, Verification, WebhookDelivery } from '../db/entities/index.js';
import type { TReviewState } from '../domain/case-result.js';
import { signingSecrets } from '../platform/webhook-secrets.js';
import { assertPublicHost } from '../platform/url-guard.js';
import { computeSignature } from '../sdk/webhook-verify.js';
import { CASE_ROW_GRACE_MS } from './case-lifecycle.js';
import type { ActivityDeps } from './deps.js';

/** Spec (Events → Delivery): at most 3 attempts, short backoff, about 7 s end to end. */
export const WEBHOOK_ATTEMPTS = 3;
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 1800;
export const WEBHOOK_BACKOFF_MS = [500, 1000];

export type WebhookEvent = 'verification.completed' | 'verification.failed' | 'verification.reviewed';

/**
 * The api starts the review workflow inside the transaction that records the disposition (a start
 * that fails records nothing), so this activity can run before that commit: seen in CI under load,
 * where the second `verification.reviewed` of a Case was dropped as "no such disposition". Wait for
 * the row as `confirmCaseRow` waits for a Case's; one that has not committed within the grace
 * period (the transaction rolled back) ends the delivery.
 */
async function committedDisposition(deps: ActivityDeps, dispositionId: string, caseId: string) {
  const firstScheduled = Context.current().info.scheduledTimestampMs;
  const pollUntil = Date.now() + 10_000; // well inside the activity's 20 s start-to-close timeout
  for (;;) {
    const d = await deps.orm.em.fork().findOne(CaseDisposition, { id: dispositionId, verificationId: caseId });
    if (d) return d;
    if (Date.now() - firstScheduled > CASE_ROW_GRACE_MS) {
      deps.log.warn({ caseId, dispositionId }, 'disposition row never committed; no verification.reviewed');
      return null;
    }
    if (Date.now() > pollUntil) throw ApplicationFailure.retryable('disposition row not committed yet', 'disposition_pending');
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function createWebhookActivities(deps: ActivityDeps) {
  return {
    /**
     * Delivers one event. Never throws for a failing receiver: after the last attempt the failure
     * is logged and the Case moves on. Every attempt is recorded (PII-free).
     */
    async deliverWebhook(caseId: string, event: WebhookEvent, dispositionId?: string): Promise<{ delivered: boolean; attempts: number; redeliver?: boolean }> {
      const em = deps.orm.em.fork();
      const v = await em.findOne(Verification, { id: caseId });
      if (!v || v.status === 'erased') return { delivered: false, attempts: 0 };
      const project = await em.findOne(Project, { id: v.projectId });
      if (!project?.webhookUrl || !project.webhookSecretEnc) return { delivered: false, attempts: 0 };
      // `verification.reviewed` carries the disposition it announces (not whatever is latest by
      // the time it is sent): its state and time, never the note.
      let reviewed: { customer_disposition: TReviewState; review: { state: TReviewState; at: string } } | null = null;
      if (event === 'verification.reviewed') {
        const d = dispositionId ? await committedDisposition(deps, dispositionId, caseId) : null;
        if (!d) return { delivered: false, attempts: 0 };
        const state = d.state as TReviewState;
        reviewed = { customer_disposition: state, review: { state, at: d.createdAt.toISOString() } };
      }

      const envelope: TWebhookEnvelope = {
        event,
        id: v.id,
        type: 'kyc',
        status: v.status as TWebhookEnvelope['status'],
        assessment: (v.assessment ?? 'assessment_incomplete') as TWebhookEnvelope['assessment'],
        advisory: true,
        confidence: v.confidence === null ? 0 : Number(v.confidence),
        summary_reasons: v.summaryReasons ?? [],
        evidence_available: v.result !== null,
        ...(project.webhookIncludeResult && v.result ? { result: v.result } : {}),
        ...(reviewed ?? {}),
      };
      const body = JSON.stringify(envelope);
      const secrets = signingSecrets(deps.config, project);
      if (!secrets) return { delivered: false, attempts: 0 };
      const url = new URL(project.webhookUrl);
      const strict = deps.config.mode === 'production' || !project.sandbox;
      const info = safeActivityInfo();
      const deliveryKey = info ? `${info.workflowExecution?.runId}:${info.activityId}:${info.attempt}` : newId('delivery');

      for (let attempt = 1; attempt <= WEBHOOK_ATTEMPTS; attempt++) {
        const started = Date.now();
        let statusCode: number | null = null;
        let error: string | null = null;
        try {
          if (strict) await assertPublicHost(url.hostname);
          const ts = Math.floor(Date.now() / 1000);
          const res = await fetch(url, {
            method: 'POST',
            body,
            redirect: 'manual', // a redirect is not a delivery, and following it could reach internal hosts
            signal: AbortSignal.timeout(WEBHOOK_ATTEMPT_TIMEOUT_MS),
            headers: {
              'content-type': 'application/json',
              'user-agent': 'identity-verification-service/1.0 (+webhooks)',
              'x-service-event': event,
              'x-service-timestamp': String(ts),
              // Exactly one hex signature, with the newest secret, as the spec defines the header;
              // during a rotation's grace period the replaced secrets sign in a header of their own.
              'x-service-signature': computeSignature(secrets.current, ts, body),
              ...(secrets.previous.length ? { 'x-service-signature-previous': secrets.previous.map((s) => computeSignature(s, ts, body)).join(',') } : {}),
            },
          });
          statusCode = res.status;
          await res.body?.cancel().catch(() => {});
        } catch (err) {
          error = (err as Error).name === 'TimeoutError' ? 'timeout' : ((err as Error).message.includes('private') ? 'private_address_refused' : 'connection_error');
        }
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        await recordAttempt(deps, { caseId, projectId: project.id, event, deliveryKey, attempt, urlOrigin: url.origin, statusCode, error, durationMs: Date.now() - started });
        if (ok) return { delivered: true, attempts: attempt };
        if (attempt < WEBHOOK_ATTEMPTS) await new Promise((r) => setTimeout(r, WEBHOOK_BACKOFF_MS[attempt - 1]));
      }
      const redeliver = deps.config.webhookRedelivery;
      deps.log.warn({ caseId, event, attempts: WEBHOOK_ATTEMPTS, origin: url.origin, redeliver }, redeliver ? 'webhook delivery failed after all attempts; it will be delivered again later' : 'webhook delivery failed after all attempts; the integrator can poll');
      // The workflow reads the setting from here (recorded in its history, so replay is deterministic).
      return { delivered: false, attempts: WEBHOOK_ATTEMPTS, redeliver };
    },
  };
}

function safeActivityInfo() {
  try {
    return Context.current().info;
  } catch {
    return null;
  }
}

async function recordAttempt(deps: ActivityDeps, a: { caseId: string; projectId: string; event: string; deliveryKey: string; attempt: number; urlOrigin: string; statusCode: number | null; error: string | null; durationMs: number }): Promise<void> {
  const em = deps.orm.em.fork();
  em.create(WebhookDelivery, {
    id: newId('delivery'),
    verificationId: a.caseId,
    projectId: a.projectId,
    event: a.event,
    deliveryKey: a.deliveryKey.slice(0, 120),
    attempt: a.attempt,
    urlOrigin: a.urlOrigin.slice(0, 300),
    statusCode: a.statusCode,
    error: a.error,
    durationMs: a.durationMs,
    createdAt: new Date(),
  });
  await em.flush();
}
