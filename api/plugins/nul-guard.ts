import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';

/**
 * PostgreSQL cannot store U+0000 in `text` or `jsonb` (the driver fails with a protocol error, a
 * 500). JSON, query strings and path parameters can carry it, so every request is checked before
 * validation and refused with 400 naming the field, before anything is written.
 */
export function findNul(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (depth > 64 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key];
    const found = findNul(child, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    for (const part of [req.params, req.query, req.body]) {
      const found = findNul(part);
      if (found) {
        const field = found.join('.') || '(body)';
        throw new AppError('validation_failed', 'Text may not contain the NUL character (U+0000).', [{ field, code: 'nul_character', message: 'contains U+0000' }]);
      }
    }
  });
}
