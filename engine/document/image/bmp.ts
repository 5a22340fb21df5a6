/**
 * Minimal BMP decoder (BITMAPINFOHEADER and later; uncompressed 8-bit palette, 24- and 32-bit):
 * sharp's prebuilt libvips has no BMP loader, and scanners and vendor SDK samples write BMP.
 * Anything else (RLE, bitfields other than plain BGRA, OS/2 headers) is refused as undecodable.
 */
export interface DecodedBmp { data: Buffer; width: number; height: number; channels: 3 }

export function isBmp(bytes: Buffer): boolean {
  return bytes.length > 54 && bytes[0] === 0x42 && bytes[1] === 0x4d;
}

export function decodeBmp(bytes: Buffer, maxPixels: number): DecodedBmp | null {
  if (!isBmp(bytes)) return null;
  const offset = bytes.readUInt32LE(10);
  const header = bytes.readUInt32LE(14);
  if (header < 40) return null;
  const width = bytes.readInt32LE(18);
  const rawHeight = bytes.readInt32LE(22);
  const bpp = bytes.readUInt16LE(28);
  const compression = bytes.readUInt32LE(30);
  const height = Math.abs(rawHeight);
  if (width <= 0 || height <= 0 || width * height > maxPixels) return null;
  if (!(compression === 0 || (compression === 3 && bpp === 32))) return null;
  if (![8, 24, 32].includes(bpp)) return null;
  const stride = Math.ceil((width * bpp) / 32) * 4;
  if (offset + stride * height > bytes.length) return null;
  let palette: Buffer | null = null;
  if (bpp === 8) {
    const colours = bytes.readUInt32LE(46) || 256;
    const start = 14 + header;
    if (start + colours * 4 > offset) return null;
    palette = bytes.subarray(start, start + colours * 4);
  }
  const out = Buffer.alloc(width * height * 3);
  const bottomUp = rawHeight > 0;
  for (let y = 0; y < height; y++) {
    const row = offset + (bottomUp ? height - 1 - y : y) * stride;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      if (bpp === 8) {
        const p = bytes[row + x]! * 4;
        if (p + 2 >= palette!.length) return null;
        out[o] = palette![p + 2]!; out[o + 1] = palette![p + 1]!; out[o + 2] = palette![p]!;
      } else {
        const p = row + x * (bpp / 8);
        out[o] = bytes[p + 2]!; out[o + 1] = bytes[p + 1]!; out[o + 2] = bytes[p]!;
      }
    }
  }
  return { data: out, width, height, channels: 3 };
}
