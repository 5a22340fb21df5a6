/**
 * Input errors of the authenticity engine. Codes are PII-free and stable, so that the activity
 * can map them to a check outcome (`unavailable`) or an upload rejection without parsing text.
 */
export const AUTHENTICITY_ERROR_CODES = [
  'unsupported_image_format',
  'image_unreadable',
  'image_too_large',
  'image_too_small',
  'model_integrity_failed',
  'model_unavailable',
] as const;
export type AuthenticityErrorCode = (typeof AUTHENTICITY_ERROR_CODES)[number];

export class AuthenticityError extends Error {
  constructor(
    readonly code: AuthenticityErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AuthenticityError';
  }
}
