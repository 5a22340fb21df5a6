import type { Rng } from '../training/rng.js';
import type { DocumentImage } from './types.js';
import { clamp255, rawInput, toRaw } from './raw.js';

/**
 * A document shown on a screen: every screen pixel becomes three vertical sub-pixel stripes with
 * a dark gap between rows, the panel's white point, black level and gamma replace the paper's,
 * a glossy surface may reflect a light, and the bezel frames it. The camera hop (photograph())
 * then samples this grid without a perfect anti-alias filter, which produces moiré.
 */
export async function renderOnScreen(doc: DocumentImage, rng: Rng): Promise<DocumentImage> {
  const screenW = rng.int(520, 900);
  const shown = await toRaw(rawInput(doc).resize(screenW, Math.round((doc.height * screenW) / doc.width), { kernel: 'lanczos3' }));
  const U = 3;
  const bezel = Math.round(screenW * U * rng.range(0.03, 0.08));
  const W = shown.width * U + 2 * bezel;
  const H = shown.height * U + 2 * bezel;
  const out = new Uint8Array(W * H * 3);
  const bezelTone = rng.int(5, 30);
  out.fill(bezelTone);
  const gamma = rng.range(0.8, 1.25);
  const blackLevel = rng.range(8, 28);
  const tint = [rng.range(0.88, 0.98), rng.range(0.92, 1.0), rng.range(0.98, 1.0)];
  const gapDim = rng.range(0.45, 0.8);
  const glare = rng.chance(0.5) ? { x: rng.range(0.2, 0.8), y: rng.range(0.2, 0.8), r: rng.range(0.1, 0.3), k: rng.range(60, 160) } : null;
  for (let y = 0; y < shown.height; y++) {
    for (let x = 0; x < shown.width; x++) {
      const j = (y * shown.width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const v = blackLevel + (255 - blackLevel) * Math.pow(shown.rgb[j + c]! / 255, gamma) * tint[c]!;
        for (let sy = 0; sy < U; sy++) {
          const row = bezel + y * U + sy;
          const dim = sy === U - 1 ? gapDim : 1;
          // Sub-pixel c of this pixel lights only its own stripe.
          const k = (row * W + bezel + x * U + c) * 3 + c;
          out[k] = clamp255(v * dim);
        }
      }
    }
  }
  if (glare) {
    for (let y = bezel; y < H - bezel; y++) {
      for (let x = bezel; x < W - bezel; x++) {
        const dx = x / W - glare.x;
        const dy = y / H - glare.y;
        const g = glare.k * Math.exp(-(dx * dx + dy * dy) / (2 * glare.r * glare.r));
        const k = (y * W + x) * 3;
        out[k] = clamp255(out[k]! + g);
        out[k + 1] = clamp255(out[k + 1]! + g);
        out[k + 2] = clamp255(out[k + 2]! + g);
      }
    }
  }
  const s = (shown.width * U) / doc.width;
  return {
    width: W,
    height: H,
    rgb: out,
    zones: doc.zones.map((z) => ({ name: z.name, x: bezel + z.x * s, y: bezel + z.y * s, width: z.width * s, height: z.height * s })),
  };
}
