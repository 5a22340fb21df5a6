import { z } from 'zod';
import { ZAcceptedDocument } from './documents.js';
import { LIVENESS_STEPS, type TLivenessStep } from './liveness.js';

/**
 * The primitives registry: the composable pieces a Template is made of. Each piece has a type, a
 * version and a zod schema of its settings (published as JSON Schema by `GET /v1/primitives`).
 * A released piece version never changes; a change is a new version, and Templates name the
 * version they were built with.
 */

export const IDENTITY_FIELDS = ['full_name', 'given_names', 'surnames', 'date_of_birth', 'document_number'] as const;
export const ZIdentityField = z.enum(IDENTITY_FIELDS);
export type TIdentityField = z.infer<typeof ZIdentityField>;

export const ZDocumentCaptureSettings = z
  .object({ accepted_documents: z.array(ZAcceptedDocument).min(1).max(20) })
  .strict()
  .describe('Which documents the applicant may capture; explicit ISO 3166-1 countries only.');

export const ZSelfieLivenessSettings = z
  .object({
    step_count: z.number().int().min(1).max(LIVENESS_STEPS.length).default(3),
    steps: z.array(z.enum(LIVENESS_STEPS)).min(1).max(LIVENESS_STEPS.length).optional().describe('Steps the challenge may draw from (default: all)'),
  })
  .strict()
  .describe('Selfie with an active liveness challenge and screen illumination.');

export const ZRecordMatchRule = z
  .object({
    collected: ZIdentityField.describe('Identity field read from the document'),
    claimed_key: z.string().min(1).max(64).describe('Key of the claimed record (intake payload or `claimed`)'),
    operator: z.enum(['equals', 'contains']),
  })
  .strict();
export const ZRecordMatchSettings = z
  .discriminatedUnion('mode', [
    z.object({ mode: z.literal('simple_match') }).strict(),
    z.object({ mode: z.literal('rules'), rules: z.array(ZRecordMatchRule).min(1).max(20) }).strict(),
  ])
  .describe('Read-only comparison of collected identity data with the claimed record. Never changes the assessment.');
export type TRecordMatchSettings = z.infer<typeof ZRecordMatchSettings>;

export const ZIntakeField = z
  .object({
    key: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/),
    type: z.enum(['string', 'date', 'email', 'number', 'boolean']),
    required: z.boolean().default(false),
    prefill: ZIdentityField.optional().describe('Identity field this key pre-fills for the verifiee'),
  })
  .strict();
export const ZIntakeShapeSettings = z
  .object({ fields: z.array(ZIntakeField).max(50) })
  .strict()
  .superRefine((s, ctx) => {
    const keys = s.fields.map((f) => f.key);
    if (new Set(keys).size !== keys.length) ctx.addIssue({ code: 'custom', message: 'intake keys must be unique', path: ['fields'] });
  })
  .describe('The integrator payload keys a Flow accepts at intake, required or not, and what they pre-fill.');
export type TIntakeShapeSettings = z.infer<typeof ZIntakeShapeSettings>;

export const PRIMITIVES = {
  document_capture: { version: 1, title: 'Document capture', settings: ZDocumentCaptureSettings },
  selfie_liveness: { version: 1, title: 'Selfie liveness', settings: ZSelfieLivenessSettings },
  record_match: { version: 1, title: 'Record match (check piece)', settings: ZRecordMatchSettings },
  intake_shape: { version: 1, title: 'Intake shape', settings: ZIntakeShapeSettings },
} as const;
export type TPrimitiveType = keyof typeof PRIMITIVES;

const piece = <T extends TPrimitiveType>(type: T) =>
  z.object({ type: z.literal(type), version: z.literal(PRIMITIVES[type].version), settings: PRIMITIVES[type].settings }).strict();

/** A Template definition: one piece of each kind at most; document capture and intake shape are required. */
export const ZTemplateDefinition = z
  .object({
    pieces: z.array(z.discriminatedUnion('type', [piece('document_capture'), piece('selfie_liveness'), piece('record_match'), piece('intake_shape')])).min(1).max(8),
  })
  .strict()
  .superRefine((d, ctx) => {
    const types = d.pieces.map((p) => p.type);
    if (new Set(types).size !== types.length) ctx.addIssue({ code: 'custom', message: 'each piece type may appear once', path: ['pieces'] });
    for (const required of ['document_capture', 'intake_shape'] as const) {
      if (!types.includes(required)) ctx.addIssue({ code: 'custom', message: `a template needs a ${required} piece`, path: ['pieces'] });
    }
  });
export type TTemplateDefinition = z.infer<typeof ZTemplateDefinition>;

type SettingsOf<T extends TPrimitiveType> = z.infer<(typeof PRIMITIVES)[T]['settings']>;

/** The settings of the Template's piece of `type`, if it has one. */
export function pieceOf<T extends TPrimitiveType>(d: TTemplateDefinition, type: T): { settings: SettingsOf<T> } | undefined {
  const found = d.pieces.find((p) => p.type === type);
  return found ? { settings: found.settings as SettingsOf<T> } : undefined;
}

/**
 * The liveness challenge a Flow's selfie-liveness piece asks for: `step_count` movements drawn
 * from `steps` (default all), at most as many as there are steps to draw from. Null without the
 * piece (the hosted page then uses the service's default challenge). The hosted page's challenge
 * and the Build preview both read it here.
 */
export function livenessChallengeOf(d: TTemplateDefinition): { stepCount: number; steps: TLivenessStep[] } | null {
  const s = pieceOf(d, 'selfie_liveness')?.settings;
  if (!s) return null;
  const steps = s.steps?.length ? [...new Set(s.steps)] : [...LIVENESS_STEPS];
  return { stepCount: Math.min(s.step_count ?? 3, steps.length), steps };
}

/** The public registry document: each piece with its version and the JSON Schema of its settings. */
export function primitivesRegistry() {
  return {
    version: 1,
    primitives: Object.entries(PRIMITIVES).map(([type, p]) => ({
      type,
      version: p.version,
      title: p.title,
      description: p.settings.description ?? '',
      settings_schema: z.toJSONSchema(p.settings, { io: 'input' }) as Record<string, unknown>,
    })),
  };
}

/** The sample Flow every new sandbox project gets (DESIGN.md). */
export const SAMPLE_KYC_DEFINITION: TTemplateDefinition = {
  pieces: [
    { type: 'document_capture', version: 1, settings: { accepted_documents: [{ country: 'MOZ', types: ['national_id', 'passport'] }, { country: 'MEX', types: ['national_id', 'passport'] }] } },
    { type: 'selfie_liveness', version: 1, settings: { step_count: 3 } },
    { type: 'record_match', version: 1, settings: { mode: 'simple_match' } },
    {
      type: 'intake_shape',
      version: 1,
      settings: {
        fields: [
          { key: 'full_name', type: 'string', required: true, prefill: 'full_name' },
          { key: 'date_of_birth', type: 'date', required: true, prefill: 'date_of_birth' },
          { key: 'id_number', type: 'string', required: false, prefill: 'document_number' },
        ],
      },
    },
  ],
};
