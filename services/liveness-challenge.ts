import { randomInt } from 'node:crypto';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { issueChallenge, TIMED_CHALLENGE_SETTINGS, ZLivenessChallenge, ZLivenessFrameMeta, type TLivenessChallenge, type TLivenessFrameMeta } from '../domain/liveness.js';
import { AppError } from '../domain/errors.js';
import { livenessChallengeOf } from '../domain/primitives.js';
import { FlowVersion, Upload, Verification } from '../db/entities/index.js';
import type { BlobStore } from '../platform/blob-store.js';

/** Cryptographic uniform draw in [0, 1) for challenge issuance. */
const cryptoRandom = (): number => randomInt(0, 2 ** 47) / 2 ** 47;

/**
 * Issues a fresh challenge for the Case and makes it the only valid one: frames recorded for an
 * earlier challenge are discarded, so a capture can never mix two challenges.
 */
export async function startLivenessChallenge(em: EntityManager, blobs: BlobStore, caseId: string): Promise<TLivenessChallenge> {
  const discarded: string[] = [];
  const challenge = await em.transactional(async (tx) => {
    const v = await tx.findOneOrFail(Verification, { id: caseId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (v.status !== 'collecting') throw new AppError('capture_already_submitted', 'This capture has already been submitted.');
    // A Case run from a Flow gets the challenge its version's selfie-liveness piece asks for.
    const version = v.flowId && v.flowVersionRef ? await tx.findOne(FlowVersion, { flowId: v.flowId, version: v.flowVersionRef }) : null;
    const shape = version ? livenessChallengeOf(version.definition) : null;
    const challenge = shape
      ? issueChallenge(cryptoRandom, new Date(), { ...TIMED_CHALLENGE_SETTINGS, stepCount: shape.stepCount }, shape.steps)
      : issueChallenge(cryptoRandom, new Date(), TIMED_CHALLENGE_SETTINGS);
    const old = await tx.find(Upload, { verificationId: caseId, kind: 'liveness_frame' });
    for (const u of old) {
      tx.remove(u);
      discarded.push(u.blobKey);
    }
    v.livenessChallenge = challenge;
    v.updatedAt = new Date();
    await tx.flush();
    return challenge;
  });
  // After the commit: a crash here leaves unreferenced blobs that erasure still removes with the Case directory.
  await Promise.all(discarded.map((k) => blobs.delete(k)));
  return challenge;
}

/** A liveness frame's metadata must name the Case's current challenge and fall within its deadline. */
export function checkFrameMeta(challengeJson: unknown, meta: unknown): TLivenessFrameMeta {
  const parsed = ZLivenessFrameMeta.safeParse(meta);
  if (!parsed.success) {
    throw new AppError('validation_failed', 'A liveness frame needs meta {nonce, timestamp_ms, colour}.', parsed.error.issues.map((i) => ({ field: `meta.${i.path.join('.')}`, code: i.code, message: i.message })));
  }
  const challenge = ZLivenessChallenge.safeParse(challengeJson);
  if (!challenge.success) throw new AppError('conflict', 'Start the liveness challenge before sending frames.', [{ field: 'meta.nonce', code: 'no_challenge', message: 'no challenge issued' }]);
  if (parsed.data.nonce !== challenge.data.nonce) throw new AppError('conflict', 'This frame belongs to another liveness challenge.', [{ field: 'meta.nonce', code: 'challenge_mismatch', message: 'not the current challenge' }]);
  if (Date.now() > Date.parse(challenge.data.deadline)) throw new AppError('conflict', 'The liveness challenge has expired; start it again.', [{ field: 'meta.nonce', code: 'challenge_expired', message: 'deadline passed' }]);
  return parsed.data;
}
