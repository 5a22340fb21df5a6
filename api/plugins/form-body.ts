import type { FastifyInstance } from 'fastify';

/** HTML forms post `application/x-www-form-urlencoded`; registered only in the dashboard and auth scopes. */
export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}
