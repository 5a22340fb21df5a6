import sharp from 'sharp';
import type { Rng } from '../training/rng.js';
import type { DocumentImage } from './types.js';
import { clamp255, cloneDoc, toRaw } from './raw.js';

/**
 * Edited text field (the document number): either painted over with the local background and
 * re-typed in a similar font, or overwritten by a patch copied from another text zone of the
 * same image (copy-move). Both are what editing tools make easy.
 */
export async function editTextField(doc: DocumentImage, rng: Rng): Promise<DocumentImage> {
  // The document number is the usual target; a layout without one on this side gets its name edited.
  const zone = doc.zones.find((z) => /number/i.test(z.name)) ?? doc.zones.find((z) => /name/i.test(z.name));
  if (!zone) throw new Error('editTextField needs a number or name zone');
  const out = cloneDoc(doc);
  const x0 = Math.max(0, Math.round(zone.x));
  const y0 = Math.max(0, Math.round(zone.y));
  const w = Math.min(doc.width - x0, Math.round(zone.width));
  const h = Math.min(doc.height - y0, Math.round(zone.height));
  const source = doc.zones.find((z) => /name/i.test(z.name) && z !== zone && z.height >= zone.height * 0.8);
  if (source && rng.chance(0.35)) {
    const sx = Math.round(source.x + rng.range(0, Math.max(0, source.width - w)));
    const sy = Math.round(source.y);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const from = (Math.min(doc.height - 1, sy + y) * doc.width + Math.min(doc.width - 1, sx + x)) * 3;
        const to = ((y0 + y) * doc.width + x0 + x) * 3;
        out.rgb[to] = doc.rgb[from]!;
        out.rgb[to + 1] = doc.rgb[from + 1]!;
        out.rgb[to + 2] = doc.rgb[from + 2]!;
      }
    }
    return out;
  }
  // Background estimate from the zone's border pixels (median per channel).
  const border: number[][] = [[], [], []];
  for (let x = 0; x < w; x++) {
    for (const y of [y0, y0 + h - 1]) {
      const j = (y * doc.width + x0 + x) * 3;
      for (let c = 0; c < 3; c++) border[c]!.push(doc.rgb[j + c]!);
    }
  }
  const bg = border.map((v) => v.sort((a, b) => a - b)[v.length >> 1]!);
  const chars = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
  let text = '';
  for (let i = 0; i < rng.int(8, 10); i++) text += i < 2 ? chars[rng.int(0, 22)] : chars[rng.int(23, 32)];
  const font = rng.pick(['DejaVu Sans', 'DejaVu Sans Mono', 'DejaVu Serif']);
  const ink = rng.int(0, 40);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
    <rect width="100%" height="100%" fill="rgb(${bg.join(',')})"/>
    <text x="2" y="${Math.round(h * 0.8)}" font-family="${font}" font-weight="bold" font-size="${Math.round(h * rng.range(0.6, 0.8))}" fill="rgb(${ink},${ink},${ink})">${text}</text></svg>`;
  const patch = await toRaw(sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).blur(rng.range(0.3, 1.2)));
  const grain = rng.range(0, 2.5);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const to = ((y0 + y) * doc.width + x0 + x) * 3;
      const from = (y * w + x) * 3;
      for (let c = 0; c < 3; c++) out.rgb[to + c] = clamp255(patch.rgb[from + c]! + rng.gauss() * grain);
    }
  }
  return out;
}
