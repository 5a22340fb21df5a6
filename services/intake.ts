import { z } from 'zod';
import type { TIntakeBody, TIntakeResponse } from '../domain/api-schemas.js';
import { AppError, type FieldError } from '../domain/errors.js';
import { pieceOf, type TIntakeShapeSettings } from '../domain/primitives.js';
import type { Principal } from '../domain/principal.js';
import { createCase } from './create-verification.js';
import type { ServiceDeps } from './deps.js';
import { findActiveFlow } from './flows.js';
import { idempotencyClaim } from './idempotency.js';
import { actingProject } from './tenancy.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Checks the payload against the intake shape; every problem names its key. Unknown keys are refused (data minimisation). */
export function validatePayload(shape: TIntakeShapeSettings, payload: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const known = new Set(shape.fields.map((f) => f.key));
  for (const f of shape.fields) {
    const v = payload[f.key];
    const field = `payload.${f.key}`;
    if (v === undefined || v === null || v === '') {
      if (f.required) errors.push({ field, code: 'required', message: `${f.key} is required by this Flow` });
      continue;
    }
    const bad = (message: string) => errors.push({ field, code: 'invalid_type', message });
    if (f.type === 'string' && (typeof v !== 'string' || v.length > 500)) bad('expected a string');
    if (f.type === 'number' && typeof v !== 'number') bad('expected a number');
    if (f.type === 'boolean' && typeof v !== 'boolean') bad('expected a boolean');
    if (f.type === 'email' && (typeof v !== 'string' || !z.email().safeParse(v).success)) bad('expected an email address');
    if (f.type === 'date' && (typeof v !== 'string' || !ISO_DATE.test(v) || Number.isNaN(Date.parse(v)))) bad('expected a date as YYYY-MM-DD');
  }
  for (const k of Object.keys(payload)) if (!known.has(k)) errors.push({ field: `payload.${k}`, code: 'unknown_key', message: 'not in this Flow\'s intake shape' });
  return errors;
}

/** `POST /v1/flows/{slug}/intake`: a Case of the Flow's current version, stamped with it. */
export async function runIntake(deps: ServiceDeps, principal: Principal, slug: string, body: TIntakeBody, idempotencyKey?: string): Promise<{ response: TIntakeResponse; replayed: boolean }> {
  const project = await actingProject(deps.em, principal);
  const { flow, version, definition } = await findActiveFlow(deps.em, project.id, slug);
  const shape = pieceOf(definition, 'intake_shape')!.settings;
  const errors = validatePayload(shape, body.payload);
  if (errors.length) {
    const missing = errors.filter((e) => e.code === 'required').map((e) => e.field.slice('payload.'.length));
    throw new AppError('validation_failed', missing.length ? `The payload lacks required key(s): ${missing.join(', ')}.` : 'The payload does not match the Flow\'s intake shape.', errors);
  }
  // Mapped keys pre-fill the capture for the verifiee and are compared with the document.
  const applicant: Record<string, unknown> = {};
  for (const f of shape.fields) if (f.prefill && body.payload[f.key] !== undefined) applicant[f.prefill] = body.payload[f.key];
  const created = await createCase(deps, project, {
    acceptedDocuments: pieceOf(definition, 'document_capture')!.settings.accepted_documents,
    applicant: Object.keys(applicant).length ? applicant : null,
    claimed: body.claimed ?? body.payload,
    verifiee: { email: body.verifiee.email },
    reference: null,
    locale: body.locale ?? null,
    returnUrl: body.return_url ?? null,
    linkExpiresInSeconds: body.link_expires_in ?? deps.config.linkTtlSeconds,
    flow: { id: flow.id, versionRef: version.version },
  }, idempotencyClaim(deps.config.secretsKey, idempotencyKey, `intake:${flow.slug}`, body));
  const response: TIntakeResponse = {
    id: created.id,
    flow_id: flow.id,
    flow_slug: flow.slug,
    flow_version_ref: created.flowVersionRef ?? version.version,
    status: 'collecting' as const,
    onboarding_url: created.onboardingUrl,
    short_url: created.shortUrl,
    link: created.shortUrl,
  };
  return { response, replayed: created.replayed };
}
