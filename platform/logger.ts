import { pino, type Logger } from 'pino';

/**
 * Logs carry ids and PII-free codes only. As a second line of defence the logger redacts the
 * fields that could hold applicant data or secrets if someone ever logs a whole object.
 */
export const REDACT_PATHS = [
  'applicant', '*.applicant', 'claimed', '*.claimed', 'payload', '*.payload', 'result', '*.result',
  'evidence', '*.evidence', 'reference', '*.reference', 'api_key', '*.api_key', 'secret', '*.secret',
  'req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie',
];

export function createLogger(level: string, name: string): Logger {
  return pino({ name, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}

/** Paths are logged without the capture token: it is a credential. */
export function scrubUrl(url: string): string {
  // OAuth callbacks carry a one-time code and state in the query: never logged.
  return url.replace(/\/(o|l)\/[^/?#]+/, '/$1/[token]').replace(/^(\/auth\/[^?#]*)[?#].*$/, '$1?[redacted]');
}
