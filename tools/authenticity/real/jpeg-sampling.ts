/**
 * Luma sampling factors (h, v) of a baseline/extended/progressive JPEG's three-component frame
 * (chroma 1×1): [1,1] = 4:4:4, [2,1] = 4:2:2, [2,2] = 4:2:0. Null for grey or malformed files.
 * Shared by the camera- and editor-table builders.
 */
export function samplingOf(bytes: Buffer): [number, number] | null {
  for (let p = 2; p + 9 < bytes.length; ) {
    if (bytes[p] !== 0xff) return null;
    const m = bytes[p + 1]!;
    const len = bytes.readUInt16BE(p + 2);
    if (m >= 0xc0 && m <= 0xc2) return bytes[p + 9] === 3 ? [bytes[p + 11]! >> 4, bytes[p + 11]! & 15] : null;
    if (m === 0xda) return null;
    p += 2 + len;
  }
  return null;
}
