import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, ERROR_STATUS, type ErrorCode, type FieldError } from '../../domain/errors.js';
import { isDatabaseUnavailable } from '../../platform/db-errors.js';

const TITLES: Partial<Record<number, string>> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict',
  410: 'Gone', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content', 429: 'Too Many Requests',
  500: 'Internal Server Error', 503: 'Service Unavailable',
};

export function problemBody(status: number, code: string, detail: string, errors?: FieldError[], extensions: AppError['extensions'] = {}) {
  return {
    type: `https://docs.ivs.dev/errors/${code}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...(errors && errors.length ? { errors } : {}),
    ...extensions,
  };
}

export function sendProblem(reply: FastifyReply, code: ErrorCode, detail: string, errors?: FieldError[], extensions?: AppError['extensions']): FastifyReply {
  const status = ERROR_STATUS[code];
  return reply.code(status).type('application/problem+json').send(problemBody(status, code, detail, errors, extensions));
}

function zodField(path: string): string {
  // fastify-type-provider-zod reports instancePath like "/accepted_documents/0/country"
  return path.replace(/^\//, '').replace(/\//g, '.') || '(body)';
}

/** One error handler: every error is application/problem+json with a code; 5xx details are never echoed. */
export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) return sendProblem(reply, err.code, err.message, err.errors, err.extensions);
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors: FieldError[] = err.validation.map((v) => {
        const base = zodField(v.instancePath);
        // zod reports unknown keys on the parent object with the key names in params.keys
        const keys = (v.params as { keys?: string[] } | undefined)?.keys;
        return {
          field: keys?.length ? keys.map((k) => (base === '(body)' ? k : `${base}.${k}`)).join(',') : base,
          code: String(v.keyword),
          message: v.message ?? 'invalid',
        };
      });
      const where = err.validationContext ?? 'body';
      return sendProblem(reply, 'validation_failed', `The request ${where} is invalid: ${errors.map((e) => `${e.field} (${e.message})`).join('; ')}`, errors);
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (err.statusCode === 400 && /JSON/i.test(err.message) && err.code?.startsWith('FST_ERR_CTP'))) {
      return sendProblem(reply, 'malformed_json', 'The request body is not valid JSON.', [{ field: '(body)', code: 'malformed_json', message: 'invalid JSON' }]);
    }
    if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return sendProblem(reply, 'malformed_json', 'The request body is empty but declared as JSON.', [{ field: '(body)', code: 'empty_body', message: 'empty JSON body' }]);
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendProblem(reply, 'unsupported_media_type', 'Send application/json (or multipart/form-data for uploads).');
    }
    if (err.code === 'FST_FILES_LIMIT' || err.code === 'FST_PARTS_LIMIT') {
      return sendProblem(reply, 'too_many_uploads', 'Send one file per upload request.', [{ field: 'file', code: 'too_many_files', message: 'one file per request' }]);
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.code === 'FST_REQ_FILE_TOO_LARGE' || err.statusCode === 413) {
      return sendProblem(reply, 'payload_too_large', 'The request body or file is larger than allowed.', [{ field: 'file', code: 'payload_too_large', message: 'too large' }]);
    }
    // busboy's parse errors are plain Errors: a multipart type without a boundary, a body that ends early.
    if (!err.code && /^Multipart: |unexpected end of multipart data/i.test(err.message)) {
      return sendProblem(reply, 'validation_failed', 'The multipart body is malformed (a missing boundary or a truncated body).', [{ field: '(body)', code: 'malformed_multipart', message: 'malformed multipart body' }]);
    }
    if (err.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      return sendProblem(reply, 'unsupported_media_type', 'Uploads must be multipart/form-data.');
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ route: req.routeOptions.url, issues: err.cause.issues.length }, 'response did not match its schema');
      return sendProblem(reply, 'internal_error', 'Internal error.');
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.code(err.statusCode).type('application/problem+json').send(problemBody(err.statusCode, 'bad_request', err.message));
    }
    if (isDatabaseUnavailable(err)) {
      // PostgreSQL is down or restarting (chaos runs, bench/chaos.ts): a transaction that did not
      // commit changed nothing, so the client may send the same request again shortly.
      req.log.warn({ route: req.routeOptions.url, code: err.code }, 'database unavailable');
      void reply.header('retry-after', '5');
      return sendProblem(reply, 'database_unavailable', 'The service cannot reach its database right now. Try again shortly.');
    }
    req.log.error({ err: { name: err.name, code: err.code, stack: err.stack } }, 'unhandled error');
    return sendProblem(reply, 'internal_error', 'Internal error.');
  });
  app.setNotFoundHandler((req, reply) => sendProblem(reply, 'not_found', `No route ${req.method} ${req.url.split('?')[0]!.replace(/\/(o|l)\/[^/]+/, '/$1/…')}.`));
}

/**
 * Fastify's own answers before routing (a malformed percent-encoding, a path parameter beyond
 * `routerOptions.maxParamLength`) are plain JSON with status 400/414; they become problem+json 400s
 * naming the path, like every other bad input. The path is not echoed: it may hold a capture token.
 */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
  void sendProblem(reply, 'validation_failed', tooLong ? 'A path parameter is longer than any identifier.' : 'The request path is not a valid URL component.', [
    { field: '(path)', code: tooLong ? 'too_long' : 'invalid_url', message: tooLong ? 'path parameter too long' : 'malformed percent-encoding' },
  ]);
}

/**
 * Every 4xx/5xx answer is application/problem+json (the handlers above); the generated OpenAPI says
 * application/json for every status, so error responses are relabelled in the document.
 */
export function problemContentTypes<T>(doc: T): T {
  const paths = (doc as { paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>> }).paths ?? {};
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      for (const [status, res] of Object.entries(op?.responses ?? {})) {
        if (!/^[45]/.test(status) || !res?.content?.['application/json']) continue;
        res.content = { 'application/problem+json': res.content['application/json'] };
      }
    }
  }
  return doc;
}
