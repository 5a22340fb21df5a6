import sharp from 'sharp';
import { homography, type Point } from '../../engine/document/image/warp.js';
import { createRng } from './random.js';
import { warpScene, type Scene } from './scene.js';

export type DegradationKind = 'blur' | 'noise' | 'jpeg' | 'rotation' | 'perspective' | 'uneven_light' | 'glare' | 'low_resolution';
export type Severity = 'moderate' | 'heavy';
export interface Degradation { kind: DegradationKind; params: Record<string, number> }

export const DEGRADATION_KINDS: DegradationKind[] = ['blur', 'noise', 'jpeg', 'rotation', 'perspective', 'uneven_light', 'glare', 'low_resolution'];
/** A realistic bad capture stacks several defects (the corpus's `combined` variants); the order follows the camera pipeline. */
export const COMBINED_DEGRADATIONS: readonly DegradationKind[] = ['perspective', 'uneven_light', 'blur', 'noise', 'jpeg'];

/** Parameters per severity: "moderate" is what a careful phone capture looks like, "heavy" a careless one. */
export function degradationFor(kind: DegradationKind, severity: Severity, seed: number): Degradation {
  const rng = createRng(seed);
  const heavy = severity === 'heavy';
  const sign = rng.chance(0.5) ? 1 : -1;
  switch (kind) {
    case 'blur': return { kind, params: { sigma: heavy ? 2.2 : 1.0 } };
    case 'noise': return { kind, params: { stddev: heavy ? 28 : 12, seed } };
    case 'jpeg': return { kind, params: { quality: heavy ? 25 : 55 } };
    case 'rotation': return { kind, params: { degrees: sign * (heavy ? 8 + rng.next() * 4 : 1.5 + rng.next() * 2.5) } };
    case 'perspective': return { kind, params: { strength: heavy ? 0.09 : 0.04, seed } };
    case 'uneven_light': return { kind, params: { depth: heavy ? 0.6 : 0.35, angle: rng.next() * 360 } };
    case 'glare': return { kind, params: { intensity: heavy ? 0.9 : 0.55, x: 0.2 + rng.next() * 0.6, y: 0.15 + rng.next() * 0.3 } };
    case 'low_resolution': return { kind, params: { scale: heavy ? 0.4 : 0.6 } };
  }
}

async function size(img: Buffer) {
  const m = await sharp(img).metadata();
  return { w: m.width!, h: m.height! };
}

/** Applies one degradation to a photographed document; geometric ones move the quad too. */
export async function degrade(scene: Scene, d: Degradation): Promise<Scene> {
  const { w, h } = await size(scene.image);
  const p = d.params;
  switch (d.kind) {
    case 'blur': return { ...scene, image: await sharp(scene.image).blur(p.sigma!).png().toBuffer() };
    case 'jpeg': return { ...scene, image: await sharp(scene.image).jpeg({ quality: p.quality! }).toBuffer() };
    case 'noise': {
      const { data, info } = await sharp(scene.image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const rng = createRng(p.seed!);
      for (let i = 0; i < data.length; i++) {
        // Box–Muller: Gaussian sensor noise.
        const n = Math.sqrt(-2 * Math.log(rng.next() + 1e-12)) * Math.cos(2 * Math.PI * rng.next());
        data[i] = Math.max(0, Math.min(255, data[i]! + n * p.stddev!));
      }
      return { ...scene, image: await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).png().toBuffer() };
    }
    case 'rotation': {
      const a = (p.degrees! * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a), cx = w / 2, cy = h / 2;
      return warpScene(scene, [c, -s, cx - c * cx + s * cy, s, c, cy - s * cx - c * cy, 0, 0, 1]);
    }
    case 'perspective': {
      const rng = createRng(p.seed!);
      const k = p.strength!;
      const src: Point[] = [[0, 0], [w, 0], [w, h], [0, h]];
      const dst = src.map(([x, y]) => [x + (x === 0 ? 1 : -1) * rng.next() * k * w, y + (y === 0 ? 1 : -1) * rng.next() * k * h] as Point);
      return warpScene(scene, homography(src, dst));
    }
    case 'uneven_light': {
      const shade = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" gradientTransform="rotate(${p.angle})"><stop offset="0" stop-color="rgb(255,255,255)"/><stop offset="1" stop-color="rgb(${Math.round(255 * (1 - p.depth!))},${Math.round(255 * (1 - p.depth!))},${Math.round(255 * (1 - p.depth!) * 0.95)})"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#g)"/></svg>`;
      return { ...scene, image: await sharp(scene.image).composite([{ input: Buffer.from(shade), blend: 'multiply' }]).png().toBuffer() };
    }
    case 'glare': {
      const r = Math.min(w, h) * 0.22;
      const spot = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><radialGradient id="g"><stop offset="0" stop-color="white" stop-opacity="${p.intensity}"/><stop offset="1" stop-color="white" stop-opacity="0"/></radialGradient></defs><ellipse cx="${p.x! * w}" cy="${p.y! * h}" rx="${r * 1.6}" ry="${r}" fill="url(#g)"/></svg>`;
      return { ...scene, image: await sharp(scene.image).composite([{ input: Buffer.from(spot), blend: 'screen' }]).png().toBuffer() };
    }
    case 'low_resolution': {
      const s = p.scale!;
      const image = await sharp(scene.image).resize(Math.round(w * s), Math.round(h * s)).png().toBuffer();
      return { image, quad: scene.quad.map(([x, y]) => [x * s, y * s] as Point) };
    }
  }
}
