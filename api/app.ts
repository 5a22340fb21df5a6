import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { AppConfig } from '../platform/config.js';
import type { BlobStore } from '../platform/blob-store.js';
import { scrubUrl } from '../platform/logger.js';
import type { ServiceDeps } from '../services/deps.js';
import type { CaptureAdvisor } from '../domain/capture-advice.js';
import type { LivePreviewer } from '../domain/live-preview.js';
import { OPENAPI_WEBHOOKS } from './openapi-webhooks.js';
import { registerAbuseLimits } from './plugins/abuse-limits.js';
import { registerHousekeeping } from './plugins/housekeeping.js';
import { registerNulGuard } from './plugins/nul-guard.js';
import { frameworkErrors, problemContentTypes, registerProblemHandlers } from './plugins/problem.js';
import { docsPageCsp, registerSecurityHeaders } from './plugins/security-headers.js';
import { accountRoutes } from './routes/account.js';
import { authRoutes } from './routes/auth.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { dispositionRoutes } from './routes/dispositions.js';
import { captureRoutes } from './routes/capture.js';
import { flowRoutes } from './routes/flows.js';
import { metaRoutes } from './routes/meta.js';
import { projectRoutes } from './routes/projects.js';
import { teamRoutes } from './routes/team.js';
import { verificationRoutes } from './routes/verifications.js';

export interface AppDeps {
  config: AppConfig;
  orm: MikroORM;
  temporal: Client;
  blobs: BlobStore;
  log: Logger;
  /** Capture advice for document photos (engine/capture-advice.ts, injected by api/server.ts). */
  advisor?: CaptureAdvisor;
  previewer?: LivePreviewer;
}

declare module 'fastify' {
  interface FastifyRequest {
    em: EntityManager;
    deps: ServiceDeps;
  }
}

/** Builds the HTTP app without listening (api/server.ts listens; tests inject or listen on port 0). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // pino's Logger is a superset of FastifyBaseLogger; the cast keeps the default generic instance type.
    loggerInstance: deps.log as unknown as FastifyBaseLogger,
    // Capture tokens live in the path: never log raw URLs.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 256 * 1024,
    // Fastify's overloads do not accept the union itself; each member is a valid trustProxy value.
    trustProxy: deps.config.trustProxy as boolean,
    // Identifiers are at most 128 characters; longer path parameters reach the routes' schemas and
    // get a 400 naming the parameter, and beyond this a problem+json 400 from frameworkErrors.
    routerOptions: { maxParamLength: 1000 },
    frameworkErrors,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerProblemHandlers(app);
  registerNulGuard(app);
  await registerSecurityHeaders(app, deps.config);
  await registerAbuseLimits(app, deps);
  registerHousekeeping(app, deps);

  app.decorateRequest('em', null as unknown as EntityManager);
  app.decorateRequest('deps', null as unknown as ServiceDeps);
  app.addHook('onRequest', async (req) => {
    // A fresh identity map per request: no entity leaks between requests.
    req.em = deps.orm.em.fork() as EntityManager;
    req.deps = { em: req.em, config: deps.config, temporal: deps.temporal, blobs: deps.blobs, log: deps.log, advisor: deps.advisor, previewer: deps.previewer };
  });
  app.addHook('onResponse', async (req, reply) => {
    req.log.info({ method: req.method, url: scrubUrl(req.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

  await app.register(fastifyMultipart, {
    limits: { fileSize: deps.config.uploads.maxBytes, files: 1, fields: 4, fieldSize: 4096, parts: 6 },
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Identity Verification Service API',
        version: '1.0.0',
        description: 'Advisory KYC identity-signal assessments. Machine routes take a project API key in `X-API-Key`. Project and team routes also accept a signed-in dashboard session (cookie plus `X-CSRF-Token` on writes) and are gated per role permission (docs/permissions.md); a non-member gets 404. Errors are `application/problem+json` with a `code` and, for validation, `errors[]` naming each field.',
      },
      servers: [{ url: deps.config.publicBaseUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          session: { type: 'apiKey', in: 'cookie', name: deps.config.auth.cookieName, description: 'Dashboard session cookie (sign in at /dashboard with Google or GitHub).' },
          csrf: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token', description: "The session's CSRF token; required on every session-authenticated write." },
        },
      },
      webhooks: OPENAPI_WEBHOOKS,
    },
    transform: jsonSchemaTransform,
    transformObject: (doc) => problemContentTypes(jsonSchemaTransformObject(doc)),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/v1/docs', transformStaticCSP: docsPageCsp });

  await app.register(metaRoutes);
  await app.register(accountRoutes);
  await app.register(projectRoutes);
  await app.register(teamRoutes);
  await app.register(authRoutes);
  await app.register(dashboardRoutes);
  await app.register(dispositionRoutes);
  await app.register(verificationRoutes);
  await app.register(flowRoutes);
  await app.register(captureRoutes);
  return app;
}
