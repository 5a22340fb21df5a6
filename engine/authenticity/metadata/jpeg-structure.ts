/**
 * A minimal JPEG marker walker over the ORIGINAL bytes. It reads what exifr does not give us:
 * the quantisation tables (DQT), the frame type, which APP segments exist, how many images the
 * file holds, and data after the end-of-image marker. It never decodes the entropy-coded data.
 */

/** Zig-zag scan order: position k of the stream holds natural (row-major) index ZIGZAG[k]. */
export const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21,
  28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54,
  47, 55, 62, 63,
];

export interface QuantTable {
  id: number;
  precision: 8 | 16;
  /** 64 values in natural (row-major) order. */
  values: Uint16Array;
}

export interface JpegStructure {
  quantTables: QuantTable[];
  /** SOF marker number (0xC0 baseline, 0xC2 progressive, ...), or null if none was found. */
  frameType: number | null;
  width: number | null;
  height: number | null;
  components: number | null;
  /** APP segment identifiers in file order, e.g. `APP0:JFIF`, `APP1:Exif`, `APP13:Photoshop`. */
  appSegments: string[];
  hasComment: boolean;
  /** Comment bytes, kept only for matching editor signatures; never copied into evidence. */
  comments: string[];
  /** Number of SOI markers seen at top level (an embedded thumbnail lives inside APP1, not here). */
  scanCount: number;
  trailingBytes: number;
}

/** The quantisation tables of one DQT segment (payload from `start` to `end`), in natural order. */
export function parseDqtSegment(bytes: Uint8Array, start: number, end: number): QuantTable[] {
  const tables: QuantTable[] = [];
  let q = start;
  while (q < end) {
    const pq = bytes[q]! >> 4;
    const id = bytes[q]! & 0x0f;
    q++;
    const values = new Uint16Array(64);
    for (let k = 0; k < 64; k++) values[ZIGZAG[k]!] = pq ? (bytes[q + 2 * k]! << 8) | bytes[q + 2 * k + 1]! : bytes[q + k]!;
    q += pq ? 128 : 64;
    tables.push({ id, precision: pq ? 16 : 8, values });
  }
  return tables;
}

/** The luminance table: id 0 by convention, else the first one defined. */
export function lumaTableOf(tables: readonly QuantTable[]): QuantTable | null {
  return tables.find((t) => t.id === 0) ?? tables[0] ?? null;
}

export function isJpeg(bytes: Uint8Array): boolean {
  return bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

function appIdentifier(bytes: Uint8Array, start: number, length: number): string {
  let end = start;
  const limit = Math.min(start + length, start + 32);
  while (end < limit && bytes[end] !== 0) end++;
  const raw = Buffer.from(bytes.subarray(start, end)).toString('latin1');
  // Keep only a short printable identifier: segment names, never payload text.
  return raw.replace(/[^A-Za-z0-9 ._-]/g, '').slice(0, 20);
}

export function parseJpegStructure(bytes: Uint8Array): JpegStructure {
  const out: JpegStructure = {
    quantTables: [],
    frameType: null,
    width: null,
    height: null,
    components: null,
    appSegments: [],
    hasComment: false,
    comments: [],
    scanCount: 0,
    trailingBytes: 0,
  };
  if (!isJpeg(bytes)) return out;
  let p = 2;
  const n = bytes.length;
  while (p + 4 <= n) {
    if (bytes[p] !== 0xff) {
      p++;
      continue;
    }
    const marker = bytes[p + 1]!;
    if (marker === 0xff) {
      p++;
      continue;
    }
    if (marker === 0xd9) {
      out.trailingBytes = n - (p + 2);
      break;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      p += 2;
      continue;
    }
    const length = (bytes[p + 2]! << 8) | bytes[p + 3]!;
    const segStart = p + 4;
    const segEnd = p + 2 + length;
    if (length < 2 || segEnd > n) break;
    if (marker === 0xdb) {
      for (const table of parseDqtSegment(bytes, segStart, segEnd)) {
        const existing = out.quantTables.findIndex((t) => t.id === table.id);
        // A progressive or multi-scan file may redefine a table; the last definition is the one used.
        if (existing >= 0) out.quantTables[existing] = table;
        else out.quantTables.push(table);
      }
    } else if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      out.frameType = marker;
      out.height = (bytes[segStart + 1]! << 8) | bytes[segStart + 2]!;
      out.width = (bytes[segStart + 3]! << 8) | bytes[segStart + 4]!;
      out.components = bytes[segStart + 5]!;
    } else if (marker >= 0xe0 && marker <= 0xef) {
      out.appSegments.push(`APP${marker - 0xe0}:${appIdentifier(bytes, segStart, length - 2)}`);
    } else if (marker === 0xfe) {
      out.hasComment = true;
      out.comments.push(Buffer.from(bytes.subarray(segStart, segEnd)).toString('latin1').slice(0, 200));
    } else if (marker === 0xda) {
      out.scanCount++;
      // Skip entropy-coded data: it ends at the first marker that is neither a stuffed 0x00 nor a restart.
      let q = segEnd;
      while (q + 1 < n) {
        if (bytes[q] === 0xff) {
          const next = bytes[q + 1]!;
          if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) break;
        }
        q++;
      }
      p = q;
      continue;
    }
    p = segEnd;
  }
  return out;
}
