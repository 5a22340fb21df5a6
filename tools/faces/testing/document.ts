import sharp, { type OverlayOptions } from 'sharp';

/**
 * A plain ID-card-like image with `portrait` printed in grayscale on the left, for face-match
 * tests that must not depend on the document corpus. Returns the card and where the portrait is.
 * The photo is cropped from the top, where the shared photos have their faces.
 */
export async function syntheticIdCard(portrait: Buffer | null): Promise<{ image: Buffer; portraitBox: { x: number; y: number; width: number; height: number } }> {
  const W = 1012, H = 638;
  const box = { x: 50, y: 150, width: 280, height: 360 };
  const layers: OverlayOptions[] = [];
  if (portrait) {
    const face = await sharp(portrait).rotate().resize({ width: box.width, height: box.height, fit: 'cover', position: 'north' }).grayscale().jpeg({ quality: 70 }).toBuffer();
    layers.push({ input: face, left: box.x, top: box.y });
  }
  const lines = Array.from({ length: 6 }, (_, i) => `<rect x="380" y="${170 + i * 55}" width="${420 - (i % 3) * 70}" height="22" fill="#44505a"/>`).join('');
  const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <rect width="${W}" height="${H}" rx="30" fill="#dfe9e4"/><rect y="0" width="${W}" height="110" fill="#2e6b58"/>
    <rect x="${box.x - 4}" y="${box.y - 4}" width="${box.width + 8}" height="${box.height + 8}" fill="#b9c6c0"/>${lines}
    <rect x="40" y="560" width="930" height="24" fill="#3a3a3a"/></svg>`);
  const image = await sharp(svg).composite(layers).jpeg({ quality: 85 }).toBuffer();
  return { image, portraitBox: box };
}
