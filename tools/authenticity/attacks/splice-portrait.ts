import sharp from 'sharp';
import type { Rng } from '../training/rng.js';
import type { DocumentImage } from './types.js';
import { clamp255, cloneDoc, toRaw } from './raw.js';

/**
 * Portrait substitution: another person's photo, with its own compression history, pasted over
 * the portrait zone, colour-matched roughly and optionally feathered at the edge.
 */
export interface SpliceOptions {
  /**
   * Quality of the donor's own JPEG save: drawn from these inclusive ranges (one picked at
   * random). Default [[55, 92]] (round 1 of the real set and the generated corpus).
   */
  donorQualities?: [number, number][];
  /** Blur the donor after its save (default true: σ 0.3, or 0.3–1.0 in half the cases). */
  donorBlur?: boolean;
}

export async function splicePortrait(doc: DocumentImage, donorFacePath: string, rng: Rng, options: SpliceOptions = {}): Promise<DocumentImage> {
  const zone = doc.zones.find((z) => /portrait|photo|face/i.test(z.name));
  if (!zone) throw new Error('splicePortrait needs a portrait zone');
  const out = cloneDoc(doc);
  const inset = rng.range(0.02, 0.08);
  const x0 = Math.max(0, Math.round(zone.x + zone.width * inset));
  const y0 = Math.max(0, Math.round(zone.y + zone.height * inset));
  const w = Math.min(doc.width - x0, Math.round(zone.width * (1 - 2 * inset)));
  const h = Math.min(doc.height - y0, Math.round(zone.height * (1 - 2 * inset)));
  // The donor photo was itself a JPEG from somewhere else: give it its own history.
  const donorJpeg = await sharp(donorFacePath)
    .rotate()
    .resize(w, h, { fit: 'cover', position: 'attention' })
    .modulate({ saturation: rng.range(0.2, 1), brightness: rng.range(0.9, 1.1) })
    .removeAlpha()
    .jpeg({ quality: donorQuality(rng, options.donorQualities) })
    .toBuffer();
  // Round 1's draws are unchanged when no options are given (same random stream, same files).
  const donor = await toRaw(options.donorBlur === false ? sharp(donorJpeg) : sharp(donorJpeg).blur(rng.chance(0.5) ? rng.range(0.3, 1.0) : 0.3));
  const feather = rng.int(0, 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const edge = Math.min(x, y, w - 1 - x, h - 1 - y);
      const alpha = feather === 0 ? 1 : Math.min(1, (edge + 1) / (feather + 1));
      const j = ((y0 + y) * doc.width + x0 + x) * 3;
      const k = (y * w + x) * 3;
      for (let c = 0; c < 3; c++) out.rgb[j + c] = clamp255(alpha * donor.rgb[k + c]! + (1 - alpha) * out.rgb[j + c]!);
    }
  }
  return out;
}

function donorQuality(rng: Rng, ranges?: [number, number][]): number {
  if (!ranges) return rng.int(55, 92);
  const [lo, hi] = ranges.length === 1 ? ranges[0]! : rng.pick(ranges);
  return rng.int(lo, hi);
}
