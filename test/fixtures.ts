import path from 'node:path';
import sharp from 'sharp';
import { colourAt, type TLivenessChallenge } from '../domain/liveness.js';
import { videosDir } from '../engine/assets.js';
import { decodeClip } from '../tools/faces/testing/clips.js';

/** A plain card-like document image for platform tests that only need a valid image. */
export async function documentImageForTests(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="856" height="540"><rect width="100%" height="100%" fill="#dfe8ef"/><rect x="30" y="90" width="220" height="280" fill="#9aa"/><text x="290" y="140" font-size="34" font-family="sans-serif">REPÚBLICA DE MOÇAMBIQUE</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer();
}

/**
 * Real frames of a real person (a shared clip) answering `challenge` in time and colour metadata.
 * The clip does not perform the challenge's steps, so liveness is expected to fail; platform tests
 * use this for realistic volume and timing, not for a pass.
 */
export async function livenessFramesForTests(challenge: TLivenessChallenge, fps = 10): Promise<{ image: Buffer; meta: { nonce: string; timestamp_ms: number; colour: string } }[]> {
  const frames = await decodeClip(path.join(videosDir(), 'liveportrait_d13.mp4'), { startS: 0, durationS: challenge.capture_ms / 1000, fps, maxSide: 480 });
  return frames.map((f) => ({ image: f.image, meta: { nonce: challenge.nonce, timestamp_ms: f.timestampMs, colour: colourAt(challenge, f.timestampMs) ?? challenge.colours[challenge.colours.length - 1]!.colour } }));
}

/**
 * A genuine synthetic Mozambican passport photographed on a table (the corpus renderer, a real
 * face as portrait), with its ground truth: the document engine reads real identity data from it.
 */
export async function genuinePassportForTests(seed = 7): Promise<{ image: Buffer; truth: { given_names: string; surnames: string; date_of_birth: string; document_number: string } }> {
  const { renderDocument, photograph, availablePortraits } = await import('../tools/corpus/index.js');
  const doc = await renderDocument({ template: 'moz-passport', seed, portrait: availablePortraits()[0] });
  const scene = await photograph(doc.image, seed);
  const id = doc.truth.identity;
  return { image: await sharp(scene.image).jpeg({ quality: 92 }).toBuffer(), truth: { given_names: id.given_names, surnames: id.surnames, date_of_birth: id.date_of_birth, document_number: id.document_number } };
}
