import sharp from 'sharp';
import { colourRgb, type TScreenColour } from '../../../domain/liveness.js';
import type { Box } from '../../../engine/faces/image.js';

const toLinear = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
// Linear → sRGB through a table (steps of 1/4096, up to 2× white, clipped on output): a
// pow() per channel per pixel is the slowest part of building a test capture otherwise.
const SRGB_STEPS = 4096;
const TO_SRGB = Uint8Array.from({ length: 2 * SRGB_STEPS + 1 }, (_, i) => {
  const l = i / SRGB_STEPS;
  const c = l <= 0.0031308 ? 12.92 * l : 1.055 * l ** (1 / 2.4) - 0.055;
  return Math.max(0, Math.min(255, Math.round(c * 255)));
});
function toSrgb(l: number): number {
  return TO_SRGB[Math.min(2 * SRGB_STEPS, Math.round(l * SRGB_STEPS))]!;
}

/**
 * Simulates a phone screen of colour `colour` lighting a face from about 30 cm: in linear light
 * the skin already reflects the room's light (the pixel value); the screen adds `strength` times
 * that reflectance in the screen colour's channels (reflected = albedo × (ambient + screen), and
 * albedo × ambient is what the camera recorded). The added light falls off smoothly outside an
 * ellipse around the face, because the screen is much closer to the face than to the background.
 * Not modelled: specular highlights, subsurface scattering, the camera's auto white balance and
 * exposure reacting to the change, rolling shutter, and screen flicker.
 */
export async function addScreenLight(jpeg: Buffer, face: Box, colour: TScreenColour, strength: number): Promise<Buffer> {
  // rotate(): apply EXIF orientation first, as the engine's decoder does, so the face box fits.
  const { data, info } = await sharp(jpeg).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [r, g, b] = colourRgb(colour);
  const gain = [r * strength, g * strength, b * strength];
  const cx = face.x + face.width / 2;
  const cy = face.y + face.height / 2;
  const rx = face.width * 0.75;
  const ry = face.height * 0.85;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const d = Math.hypot((x - cx) / rx, (y - cy) / ry);
      const w = d <= 1 ? 1 : Math.max(0, 1 - (d - 1) / 0.5);
      if (w <= 0) continue;
      const i = (y * info.width + x) * 3;
      for (let c = 0; c < 3; c++) data[i + c] = toSrgb(toLinear[data[i + c]!]! * (1 + gain[c]! * w));
    }
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}
