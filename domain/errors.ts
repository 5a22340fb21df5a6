/**
 * The single vocabulary of error codes. The API maps each to an HTTP status in one table;
 * activities throw `ApplicationFailure`s whose `type` is one of these codes.
 */
export const ERROR_STATUS = {
  validation_failed: 400,
  malformed_json: 400,
  unsupported_media_type: 415,
  unauthorized: 401,
  forbidden: 403,
  csrf_failed: 403,
  signup_disabled_in_production: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  last_owner: 409,
  capture_already_submitted: 409,
  idempotent_case_not_collecting: 409,
  verification_erased: 410,
  session_expired: 410,
  link_expired: 410,
  payload_too_large: 413,
  too_many_uploads: 413,
  unsupported_image_format: 415,
  image_too_large: 422,
  image_unreadable: 422,
  wildcard_country_not_allowed: 422,
  unknown_country: 422,
  kyb_not_available: 422,
  document_image_required: 422,
  document_not_accepted: 422,
  webhook_url_not_allowed: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  workflow_unavailable: 503,
  database_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  /** JSON-pointer-like path of the offending field, e.g. `accepted_documents.0.country`. */
  field: string;
  code: string;
  message: string;
}

/** A business error with a code from the table above; `errors` names each offending field. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[];
  /** Problem extension members (RFC 9457), e.g. the `verification_id` a replayed key names. */
  readonly extensions: { verification_id?: string };
  constructor(code: ErrorCode, message: string, errors: FieldError[] = [], extensions: { verification_id?: string } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.errors = errors;
    this.extensions = extensions;
  }
}
