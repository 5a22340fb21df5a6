import { z } from 'zod';
import { ALPHA2_TO_ALPHA3, ALPHA3_CODES } from './countries.js';

export const DOCUMENT_TYPES = ['passport', 'national_id', 'driving_licence', 'residence_permit'] as const;
export const ZDocumentType = z.enum(DOCUMENT_TYPES);
export type TDocumentType = z.infer<typeof ZDocumentType>;

/** Anything that means "every country": rejected by design (spec: explicit country codes only). */
const WILDCARDS = new Set(['*', 'ANY', 'ALL', 'XX', 'XXX', '**', 'WORLD', 'GLOBAL', 'INTL', 'INT']);

export type CountryCheck = { ok: true; alpha3: string } | { ok: false; code: 'wildcard_country_not_allowed' | 'unknown_country' };

/** Normalises an ISO 3166-1 alpha-2 or alpha-3 code to alpha-3; rejects wildcards explicitly. */
export function normalizeCountry(input: string): CountryCheck {
  const v = input.trim().toUpperCase();
  if (WILDCARDS.has(v) || /[*?%]/.test(v)) return { ok: false, code: 'wildcard_country_not_allowed' };
  if (v.length === 2 && ALPHA2_TO_ALPHA3.has(v)) return { ok: true, alpha3: ALPHA2_TO_ALPHA3.get(v)! };
  if (v.length === 3 && ALPHA3_CODES.has(v)) return { ok: true, alpha3: v };
  return { ok: false, code: 'unknown_country' };
}

export const ZAcceptedDocument = z.object({
  country: z.string().min(1).max(16).describe('ISO 3166-1 alpha-2 or alpha-3; wildcards are rejected'),
  types: z.array(ZDocumentType).min(1).max(DOCUMENT_TYPES.length),
});
export type TAcceptedDocument = z.infer<typeof ZAcceptedDocument>;

/** Calibrated tier (spec: Document tiers). Everything else that is supported is uncalibrated. */
export const CALIBRATED_DOCUMENTS: ReadonlyArray<{ country: string; type: TDocumentType }> = [
  { country: 'MOZ', type: 'national_id' },
  { country: 'MOZ', type: 'passport' },
  { country: 'MEX', type: 'national_id' },
  { country: 'MEX', type: 'passport' },
];
