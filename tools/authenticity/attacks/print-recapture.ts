import type { Rng } from '../training/rng.js';
import type { DocumentImage } from './types.js';
import { clamp255, rawInput, toRaw } from './raw.js';

/**
 * A document printed on an office printer: CMYK separation, an amplitude-modulated halftone
 * screen per ink at the classic angles, imperfect inks on off-white paper, and ink spread.
 * photograph() then takes the picture of the sheet.
 */
export async function renderPrinted(doc: DocumentImage, rng: Rng): Promise<DocumentImage> {
  const up = rng.range(1.6, 2.4);
  const big = await toRaw(rawInput(doc).resize(Math.round(doc.width * up), Math.round(doc.height * up), { kernel: 'cubic' }));
  const { width: W, height: H } = big;
  const cell = rng.range(3.5, 6.5);
  const angles = [15, 75, 0, 45].map((a) => ((a + rng.range(-3, 3)) * Math.PI) / 180);
  const paper = [rng.int(236, 252), rng.int(234, 250), rng.int(222, 244)];
  const strength = [rng.range(0.75, 0.92), rng.range(0.75, 0.92), rng.range(0.7, 0.9)];
  const out = new Uint8Array(W * H * 3);
  const cs = angles.map((a) => Math.cos(a));
  const sn = angles.map((a) => Math.sin(a));
  const f = (2 * Math.PI) / cell;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const j = (y * W + x) * 3;
      const c = 1 - big.rgb[j]! / 255;
      const m = 1 - big.rgb[j + 1]! / 255;
      const yy = 1 - big.rgb[j + 2]! / 255;
      const k = Math.min(c, m, yy) * 0.8;
      const inks = [c - k, m - k, yy - k, k];
      const dots = inks.map((v, i) => {
        const u = x * cs[i]! + y * sn[i]!;
        const w = -x * sn[i]! + y * cs[i]!;
        const t = 0.5 + 0.25 * (Math.cos(f * u) + Math.cos(f * w));
        return v > 1 - t ? 1 : 0;
      });
      const kInk = 1 - 0.9 * dots[3]!;
      out[j] = clamp255(paper[0]! * (1 - strength[0]! * dots[0]!) * kInk);
      out[j + 1] = clamp255(paper[1]! * (1 - strength[1]! * dots[1]!) * kInk);
      out[j + 2] = clamp255(paper[2]! * (1 - strength[2]! * dots[2]!) * kInk);
    }
  }
  const spread = await toRaw(rawInput({ width: W, height: H, rgb: out }).blur(rng.range(0.4, 1.0)));
  const s = W / doc.width;
  return { ...spread, zones: doc.zones.map((z) => ({ name: z.name, x: z.x * s, y: z.y * s, width: z.width * s, height: z.height * s })) };
}
