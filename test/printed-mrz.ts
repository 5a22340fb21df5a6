import sharp from 'sharp';

/**
 * MRZ lines in OCR-B, black on white, `px` type with a margin, as a JPEG: a clean print of given lines
 * (a published vector, a national format) for the scan and the capture advice to read.
 */
export async function printedMrz(lines: string[], px = 26): Promise<Buffer> {
  const w = Math.round(lines[0]!.length * px * 0.72) + 80;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${Math.round(px * (2 + 1.6 * lines.length))}"><rect width="100%" height="100%" fill="#fff"/>`
    + lines.map((l, i) => `<text x="40" y="${Math.round(px * (1.6 + 1.6 * i))}" font-family="OCR B" font-size="${px}" fill="#000">${l.replace(/</g, '&lt;')}</text>`).join('') + '</svg>';
  return sharp(Buffer.from(svg)).greyscale().jpeg({ quality: 92 }).toBuffer();
}
