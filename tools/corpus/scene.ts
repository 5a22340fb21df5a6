import sharp from 'sharp';
import { apply, homography, warp, type Point } from '../../engine/document/image/warp.js';
import { createRng } from './random.js';

/** A photographed document: the image and where the document's corners (TL, TR, BR, BL) lie in it. */
export interface Scene { image: Buffer; quad: Point[] }

const BACKGROUNDS = [[70, 52, 40], [48, 54, 62], [92, 92, 96], [30, 30, 34], [110, 80, 55]];

/** Puts a flat document on a table-like background with a margin, as a phone photo would. */
export async function photograph(document: Buffer, seed: number, margin = 0.16): Promise<Scene> {
  const rng = createRng(seed);
  const meta = await sharp(document).metadata();
  const w = meta.width!, h = meta.height!;
  const mx = Math.round(w * margin), my = Math.round(h * margin);
  const [r, g, b] = rng.pick(BACKGROUNDS) as [number, number, number];
  const W = w + 2 * mx, H = h + 2 * my;
  // Low-frequency texture so the background is not a flat colour.
  const tex = Buffer.alloc(W * H * 3);
  const fx = 0.002 + rng.next() * 0.01, ph = rng.next() * 6;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const d = 10 * Math.sin(x * fx + ph) * Math.cos(y * fx * 0.7) + (rng.next() - 0.5) * 8;
    const o = (y * W + x) * 3;
    tex[o] = Math.max(0, Math.min(255, r + d)); tex[o + 1] = Math.max(0, Math.min(255, g + d)); tex[o + 2] = Math.max(0, Math.min(255, b + d));
  }
  const image = await sharp(tex, { raw: { width: W, height: H, channels: 3 } })
    .composite([{ input: await sharp(document).png().toBuffer(), left: mx, top: my }])
    .png().toBuffer();
  return { image, quad: [[mx, my], [mx + w, my], [mx + w, my + h], [mx, my + h]] };
}

/** Applies a projective map (source → output) to the scene, keeping its size. */
export async function warpScene(scene: Scene, forward: number[]): Promise<Scene> {
  const { data, info } = await sharp(scene.image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const corners: Point[] = [[0, 0], [info.width, 0], [info.width, info.height], [0, info.height]];
  const mapped = corners.map((c) => apply(forward, c));
  const back = homography(mapped, corners);
  const edge = [data[0]!, data[1]!, data[2]!];
  const out = warp({ data, width: info.width, height: info.height, channels: 3 }, back, info.width, info.height, edge);
  const image = await sharp(out.data, { raw: { width: out.width, height: out.height, channels: 3 } }).png().toBuffer();
  return { image, quad: scene.quad.map((p) => apply(forward, p)) };
}
