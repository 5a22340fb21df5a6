import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../platform/config.js';

/**
 * Security headers on every response (issue 18), pages and API alike, through @fastify/helmet.
 *
 * The CSP is written for the hosted capture page, the strictest consumer: scripts only from this
 * origin (the page loads /hosted/capture.js as a module, no inline script), styles from this origin
 * plus a per-response nonce for the one inline `<style>` that carries the project's branding
 * colours (`reply.cspNonce.style`; no 'unsafe-inline'), camera frames drawn through blob: and
 * mediastream: URLs, the logo from https: or a data: URL, fetches to this origin only, and no
 * framing by anyone (frame-ancestors 'none' plus X-Frame-Options DENY for old browsers). A page
 * that needs an inline script uses `reply.cspNonce.script` the same way.
 * Permissions-Policy lets only this origin ask for the camera. HSTS only in production, where
 * PUBLIC_BASE_URL is https: on a development http origin it would pin browsers to https.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: AppConfig): Promise<void> {
  const production = config.mode === 'production';
  await app.register(fastifyHelmet, {
    global: true,
    enableCSPNonces: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'https:', 'blob:'],
        mediaSrc: ["'self'", 'blob:', 'mediastream:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false, // the branding logo may be any https image
  });
  app.addHook('onRequest', async (_req, reply) => {
    reply.header('permissions-policy', 'camera=(self), microphone=(), geolocation=(), payment=(), usb=()');
  });
}

/**
 * Swagger UI (/v1/docs only) injects `<style>` elements from its bundle at run time, which no
 * nonce can reach; its pages show the public API description and no applicant data, so there the
 * style nonce gives way to 'unsafe-inline' (a nonce in the list would make browsers ignore it).
 * Scripts stay 'self' only.
 */
export function docsPageCsp(header: string): string {
  return header.replace(/style-src 'self' 'nonce-[^']+'/, "style-src 'self' 'unsafe-inline'");
}
