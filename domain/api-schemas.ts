import { z } from 'zod';
import { ZAcceptedDocument, ZDocumentType } from './documents.js';
import { REVIEW_STATES, ZCaseResult, ZReview } from './case-result.js';
import { ZLivenessChallenge } from './liveness.js';
import { ZCaptureAdvice } from './capture-advice.js';
import { ASSESSMENTS } from './policy.js';

/** Request and response shapes of the machine API (DESIGN.md "Machine contract details"). */

export const VERIFICATION_STATUSES = ['collecting', 'pending', 'processing', 'completed', 'failed', 'erased'] as const;
export const ZVerificationStatus = z.enum(VERIFICATION_STATUSES);
export const ZAssessment = z.enum(ASSESSMENTS);
/** The one list of applicant locales (API, intake, hosted pages). */
export const LOCALES = ['en', 'es', 'pt'] as const;
export type TLocale = (typeof LOCALES)[number];

export const ZProblem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    errors: z.array(z.object({ field: z.string(), code: z.string(), message: z.string() })).optional(),
    /** `idempotent_case_not_collecting`: the Case the `Idempotency-Key` already made. */
    verification_id: z.string().optional(),
  })
  .meta({ id: 'Problem' });

/**
 * `Idempotency-Key` on creates: any printable ASCII up to 255 characters (a UUID is usual). The
 * same key with the same request within 24 h answers the Case it already made. A loose object:
 * the route's other headers (the API key among them) stay as they are.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const ZIdempotencyHeaders = z.looseObject({
  [IDEMPOTENCY_KEY_HEADER]: z.string().min(1).max(255).regex(/^[\x20-\x7e]+$/, 'expected printable ASCII').optional()
    .meta({ description: 'Makes the create safe to retry: the same key with the same request within 24 h answers the Case it already made (header `Idempotent-Replayed: true`) instead of a second one; with a different request, 422 `idempotency_key_reused`.' }),
});

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

export const ZApplicant = z
  .object({
    given_names: z.string().trim().min(1).max(200).optional(),
    surnames: z.string().trim().min(1).max(200).optional(),
    date_of_birth: isoDate.optional(),
    document_number: z.string().trim().min(1).max(40).optional(),
  })
  .strict()
  .meta({ id: 'Applicant', description: 'Applicant data the integrator already holds (PII; erased with the verification).' });
export type TApplicant = z.infer<typeof ZApplicant>;

/**
 * Where the hosted page sends the applicant once the capture is submitted: the integrator's own
 * page (http or https only; the page navigates the applicant's browser there, nothing fetches it).
 */
export const ZReturnUrl = z.url({ protocol: /^https?$/ }).max(2000)
  .describe('Where the hosted page sends the applicant after submit (a "Continue" link, then a redirect); http(s) only. Erased with the verification.');

export const ZCreateVerificationBody = z
  .object({
    type: z.string().default('kyc').describe('`kyc`; `kyb` is not in this release'),
    accepted_documents: z.array(ZAcceptedDocument).min(1).max(20),
    applicant: ZApplicant.optional(),
    reference: z.string().trim().min(1).max(200).optional().describe('Your own identifier for this applicant'),
    locale: z.enum(LOCALES).optional(),
    link_expires_in: z.number().int().min(5).max(30 * 86_400).optional().describe('Seconds until the capture link expires (default 7 days)'),
    return_url: ZReturnUrl.optional(),
  })
  .strict()
  .meta({ id: 'CreateVerification' });
export type TCreateVerificationBody = z.infer<typeof ZCreateVerificationBody>;

export const ZCreatedVerification = z
  .object({
    id: z.string(),
    type: z.literal('kyc'),
    status: ZVerificationStatus,
    onboarding_url: z.string().url(),
    short_url: z.string().url(),
    expires_at: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'CreatedVerification' });

export const ZVerification = z
  .object({
    id: z.string(),
    type: z.literal('kyc'),
    status: ZVerificationStatus,
    assessment: ZAssessment.optional(),
    advisory: z.literal(true),
    confidence: z.number().optional(),
    summary_reasons: z.array(z.string()).optional(),
    result: ZCaseResult.optional(),
    engine_profile: z.string(),
    policy_revision: z.string(),
    flow_id: z.string().optional(),
    flow_version_ref: z.number().int().optional(),
    reference: z.string().optional(),
    return_url: z.string().optional(),
    /** The latest customer disposition's state (the integrator's outcome; never changes the assessment). */
    customer_disposition: z.enum(REVIEW_STATES).optional(),
    review: ZReview.optional(),
    expires_at: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Verification' });

export const ZListVerificationsQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().max(200).optional(),
    status: ZVerificationStatus.optional(),
    assessment: ZAssessment.optional(),
    created_after: z.string().datetime({ offset: true }).optional(),
    created_before: z.string().datetime({ offset: true }).optional(),
    /** The integrator's own `reference`, matched exactly: find the Case of a customer whose create answer was lost. */
    reference: z.string().trim().min(1).max(200).optional(),
  })
  .strict();

export const ZVerificationList = z
  .object({ data: z.array(ZVerification), next_cursor: z.string().nullable() })
  .meta({ id: 'VerificationList' });

export const ZErasureReceipt = z
  .object({
    id: z.string(),
    status: z.literal('erased'),
    erased_at: z.string(),
    erased: z.object({ fields: z.array(z.string()), files: z.number().int() }),
  })
  .meta({ id: 'ErasureReceipt', description: 'PII-safe: names and counts only, never values.' });
export type TErasureReceipt = z.infer<typeof ZErasureReceipt>;

export const ZIdParams = z.object({ id: z.string().min(1).max(64) });
export const ZProjectParams = z.object({ project_id: z.string().min(1).max(64) });
export const ZProjectKeyParams = z.object({ project_id: z.string().min(1).max(64), key_id: z.string().min(1).max(64) });

export const ZSignupBody = z.object({ name: z.string().trim().min(1).max(200).optional() }).strict().meta({ id: 'Signup' });
export const ZSignupResponse = z
  .object({ project_id: z.string(), org_id: z.string().describe('The sandbox org the project belongs to; sign in to the dashboard and ask an operator to grant you its ownership, or sign up from the dashboard instead.'), name: z.string(), sandbox: z.literal(true), api_key: z.string() })
  .meta({ id: 'SignupResult' });
export const ZMe = z
  .object({ project_id: z.string(), name: z.string(), sandbox: z.boolean(), webhook_url: z.string().nullable() })
  .meta({ id: 'Me' });
export const ZRotateResponse = z.object({ api_key: z.string() }).meta({ id: 'RotatedKey' });

export const ZApiKeyView = z
  .object({ id: z.string(), name: z.string(), prefix: z.string(), created_at: z.string(), revoked_at: z.string().nullable(), last_used_at: z.string().nullable() })
  .meta({ id: 'ApiKey' });
export const ZCreateKeyBody = z.object({ name: z.string().trim().min(1).max(200).optional() }).strict();
export const ZCreatedKey = ZApiKeyView.extend({ api_key: z.string() }).meta({ id: 'CreatedApiKey' });

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'expected #RRGGBB');
export const ZBranding = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    logo_url: z.string().url().max(2000).refine((u) => /^https:\/\//.test(u) || /^data:image\/(png|jpeg|webp);base64,/.test(u), 'logo must be https or a data:image URL').optional(),
    primary_colour: hexColour.optional(),
    background_colour: hexColour.optional(),
    text_colour: hexColour.optional(),
  })
  .strict()
  .meta({ id: 'Branding' });
export type TBranding = z.infer<typeof ZBranding>;

const previousExpiry = z.string().nullable()
  .meta({ description: 'While a regenerated secret is in its grace period, deliveries also carry X-Service-Signature-Previous; this is when the last replaced secret stops signing.' });
export const ZWebhookPutBody = z
  .object({
    url: z.string().url().max(2000),
    regenerate: z.boolean().optional(),
    include_result: z.boolean().optional(),
    /** With `regenerate`: how long the replaced secret keeps signing beside the new one; 0 ends every earlier secret now (a leak). */
    secret_grace_seconds: z.number().int().min(0).max(30 * 86_400).optional()
      .meta({ description: 'With regenerate: seconds the replaced secret (and any earlier one still in its grace) keeps signing deliveries beside the new one. Default 86400; 0 ends them at once.' }),
  })
  .strict()
  .meta({ id: 'WebhookConfigUpdate' });
export const ZWebhookView = z
  .object({ url: z.string().nullable(), include_result: z.boolean(), secret_set: z.boolean(), previous_secret_expires_at: previousExpiry })
  .meta({ id: 'WebhookConfig' });
export const ZWebhookPutResponse = z
  .object({ url: z.string(), include_result: z.boolean(), secret: z.string().optional(), previous_secret_expires_at: previousExpiry })
  .meta({ id: 'WebhookConfigUpdated' });
export const ZLegacyWebhookBody = z.object({ url: z.string().url().max(2000).nullable() }).strict().meta({ id: 'LegacyWebhook' });
export const ZLegacyWebhookResponse = z
  .object({ url: z.string().nullable(), include_result: z.boolean(), secret: z.string().optional() })
  .meta({ id: 'LegacyWebhookResult' });

/** Webhook body (spec: Events). `result` only when the project opted in. */
export const ZWebhookEnvelope = z
  .object({
    event: z.enum(['verification.completed', 'verification.failed', 'verification.reviewed']),
    id: z.string(),
    type: z.literal('kyc'),
    status: ZVerificationStatus,
    assessment: ZAssessment,
    advisory: z.literal(true),
    confidence: z.number(),
    summary_reasons: z.array(z.string()),
    evidence_available: z.boolean(),
    result: ZCaseResult.optional(),
    /** `verification.reviewed` only: the recorded disposition's state, and when. Never the note. */
    customer_disposition: z.enum(REVIEW_STATES).optional(),
    review: ZReview.optional(),
  })
  .meta({ id: 'WebhookEvent' });
export type TWebhookEnvelope = z.infer<typeof ZWebhookEnvelope>;

// ---- capture API (/o/{token}) ----
export const UPLOAD_KINDS = ['document_front', 'document_back', 'selfie', 'liveness_frame'] as const;
export const ZUploadKind = z.enum(UPLOAD_KINDS);
export type TUploadKind = z.infer<typeof ZUploadKind>;

export const ZTokenParams = z.object({ token: z.string().min(16).max(128) });
export const ZCaptureSession = z
  .object({
    case_id: z.string(),
    status: ZVerificationStatus,
    accepted_documents: z.array(z.object({ country: z.string(), types: z.array(z.string()) })),
    steps: z.array(z.string()),
    challenge: ZLivenessChallenge.nullable(),
    branding: z.record(z.string(), z.unknown()),
    locale: z.string(),
    expires_at: z.string(),
    uploads: z.array(z.object({ upload_id: z.string(), kind: ZUploadKind })),
  })
  .meta({ id: 'CaptureSession' });
export const ZUploadResponse = z
  .object({
    upload_id: z.string(),
    kind: ZUploadKind,
    sha256: z.string(),
    advice: ZCaptureAdvice.optional().describe('Document photos only: a quick look at what the applicant could fix before submitting (advice, never a verdict: the Case is judged in full after submit, and the photo is kept either way)'),
  })
  .meta({ id: 'Upload' });
export const ZFramesResponse = z
  .object({
    uploads: z.array(z.object({ upload_id: z.string(), kind: z.literal('liveness_frame'), sha256: z.string() })).describe('One per frame, in the order the frames were sent'),
  })
  .meta({ id: 'FramesUpload' });
export const ZSubmitBody = z
  .object({ document: z.object({ country: z.string().min(2).max(3), type: ZDocumentType }).strict() })
  .strict()
  .meta({ id: 'CaptureSubmit' });
export const ZSubmitResponse = z.object({ status: z.literal('pending') });

// ---- Flows and intake (/v1/primitives, /v1/flows) ----
export const ZPrimitivesRegistry = z
  .object({ version: z.number(), primitives: z.array(z.object({ type: z.string(), version: z.number(), title: z.string(), description: z.string(), settings_schema: z.record(z.string(), z.unknown()) })) })
  .meta({ id: 'PrimitivesRegistry' });

export const ZFlowSummary = z.object({ id: z.string(), slug: z.string(), name: z.string(), active: z.boolean(), current_version: z.number().int(), created_at: z.string(), updated_at: z.string() });
export type TFlowSummary = z.infer<typeof ZFlowSummary>;
export const ZFlowList = z.object({ data: z.array(ZFlowSummary) }).meta({ id: 'FlowList' });
export const ZFlowSlugParams = z.object({ slug: z.string().min(1).max(64) });

export const ZIntakeBody = z
  .object({
    payload: z.record(z.string(), z.unknown()).describe("Validated against the Flow's intake shape"),
    verifiee: z.object({ email: z.email().max(320) }).strict(),
    claimed: z.record(z.string(), z.unknown()).optional().describe('Explicit reference record; default: the whole payload'),
    locale: z.enum(LOCALES).optional(),
    link_expires_in: z.number().int().min(5).max(30 * 86_400).optional(),
    return_url: ZReturnUrl.optional(),
  })
  .strict()
  .meta({ id: 'IntakeRequest' });
export type TIntakeBody = z.infer<typeof ZIntakeBody>;

export const ZIntakeResponse = z
  .object({
    id: z.string(),
    flow_id: z.string(),
    flow_slug: z.string(),
    flow_version_ref: z.number().int(),
    status: z.literal('collecting'),
    onboarding_url: z.string().url(),
    short_url: z.string().url(),
    link: z.string().url(),
  })
  .meta({ id: 'IntakeResponse' });
export type TIntakeResponse = z.infer<typeof ZIntakeResponse>;

// Team (dashboard session; the active org of the session).
export const ZRole = z.enum(['owner', 'admin', 'developer', 'compliance']).meta({ id: 'Role' });
export const ZMember = z
  .object({ user_id: z.string(), email: z.string(), name: z.string().nullable(), role: ZRole, joined_at: z.string() })
  .meta({ id: 'TeamMember' });
export const ZInvitation = z
  .object({ id: z.string(), email: z.string(), role: ZRole, status: z.enum(['pending', 'accepted', 'revoked']), created_at: z.string() })
  .meta({ id: 'Invitation' });
export const ZInvitationBody = z
  // Trimmed and lowercased before the format check, as checks on one string (not a pipe into z.email(), whose
  // input side the OpenAPI document would show as a plain string).
  .object({ email: z.string().trim().toLowerCase().email().max(320), role: ZRole })
  .strict()
  .meta({ id: 'InvitationCreate' });
export const ZRoleBody = z.object({ role: ZRole }).strict().meta({ id: 'RoleChange' });
export const ZUserParams = z.object({ user_id: z.string().min(1).max(64) });

// ---- customer dispositions (Case Management, dashboard session) ----
export const ZDispositionBody = z
  .object({
    state: z.enum(REVIEW_STATES),
    /** Free text for the team; may name the person, so it is erased with the Case and never sent in webhooks. */
    note: z.string().max(2000).optional(),
  })
  .strict()
  .meta({ id: 'DispositionBody' });
export type TDispositionBody = z.infer<typeof ZDispositionBody>;

export const ZDisposition = z
  .object({
    id: z.string(),
    verification_id: z.string(),
    state: z.enum(REVIEW_STATES),
    note: z.string().nullable(),
    note_erased: z.boolean(),
    recorded_by: z.object({ user_id: z.string(), email: z.string().nullable() }),
    recorded_at: z.string(),
  })
  .meta({ id: 'Disposition' });
export type TDisposition = z.infer<typeof ZDisposition>;
export const ZDispositionList = z.object({ data: z.array(ZDisposition) }).meta({ id: 'DispositionList' });
