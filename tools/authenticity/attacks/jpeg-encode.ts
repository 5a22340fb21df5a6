import sharp from 'sharp';
import { fdctIslow, quantizeIslow } from '../../../engine/authenticity/forensics/islow-dct.js';
import { ZIGZAG } from '../../../engine/authenticity/metadata/jpeg-structure.js';

/**
 * A baseline JPEG encoder that writes ANY quantisation tables (sharp/libvips only offer mozjpeg's
 * nine presets): the generator's simulated camera saves with the tables real cameras write
 * (`camera-tables.json`). libjpeg's colour conversion, integer DCT (islow) and quantiser, libjpeg's
 * chroma downsampling, and the standard Huffman tables of ITU-T T.81 Annex K.3 (taken from a
 * libjpeg-turbo file written by sharp with `optimiseCoding: false`, so they are not retyped here).
 * EXIF, when given, is the APP1 segment sharp writes for the same tags.
 */
export interface EncodeTables {
  /** 64 values each, natural (row-major) order, 1..255. */
  luma: readonly number[];
  chroma: readonly number[];
  /** Luma sampling factors; chroma is 1×1. */
  sampling: readonly [number, number];
}

interface Huffman {
  code: Uint16Array;
  size: Uint8Array;
}

interface StandardSegments {
  dht: Buffer[];
  huffman: { dc0: Huffman; ac0: Huffman; dc1: Huffman; ac1: Huffman };
}

let standard: Promise<StandardSegments> | null = null;

function buildHuffman(bits: Uint8Array, vals: Uint8Array): Huffman {
  const code = new Uint16Array(256);
  const size = new Uint8Array(256);
  let c = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < bits[len - 1]!; i++) {
      code[vals[k]!] = c++;
      size[vals[k]!] = len;
      k++;
    }
    c <<= 1;
  }
  return { code, size };
}

function segments(bytes: Buffer): { marker: number; data: Buffer; whole: Buffer }[] {
  const out: { marker: number; data: Buffer; whole: Buffer }[] = [];
  let p = 2;
  while (p + 4 <= bytes.length && bytes[p] === 0xff) {
    const marker = bytes[p + 1]!;
    const len = bytes.readUInt16BE(p + 2);
    out.push({ marker, data: bytes.subarray(p + 4, p + 2 + len), whole: bytes.subarray(p, p + 2 + len) });
    if (marker === 0xda) break;
    p += 2 + len;
  }
  return out;
}

async function standardSegments(): Promise<StandardSegments> {
  const probe = await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 90, g: 120, b: 200 } } })
    .jpeg({ quality: 90, optimiseCoding: false, chromaSubsampling: '4:2:0' })
    .toBuffer();
  const dht = segments(probe).filter((s) => s.marker === 0xc4);
  const tables = new Map<number, Huffman>();
  for (const s of dht) {
    let q = 0;
    while (q < s.data.length) {
      const tc = s.data[q]!;
      const bits = s.data.subarray(q + 1, q + 17);
      const n = bits.reduce((a, b) => a + b, 0);
      tables.set(tc, buildHuffman(bits, s.data.subarray(q + 17, q + 17 + n)));
      q += 17 + n;
    }
  }
  const get = (tc: number) => {
    const t = tables.get(tc);
    if (!t) throw new Error(`standard Huffman table ${tc.toString(16)} missing`);
    return t;
  };
  return { dht: dht.map((s) => Buffer.from(s.whole)), huffman: { dc0: get(0x00), ac0: get(0x10), dc1: get(0x01), ac1: get(0x11) } };
}

/** The APP1 (Exif) segment sharp/libvips writes for these tags, or null. */
export async function exifSegment(exif: Record<string, Record<string, string>>): Promise<Buffer | null> {
  const probe = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .jpeg({ quality: 90 })
    .withExif(exif as never)
    .toBuffer();
  const app1 = segments(probe).find((s) => s.marker === 0xe1 && s.data.subarray(0, 4).toString('latin1') === 'Exif');
  return app1 ? Buffer.from(app1.whole) : null;
}

class BitWriter {
  private buf = Buffer.alloc(1 << 16);
  private len = 0;
  private acc = 0;
  private n = 0;
  private byte(b: number): void {
    if (this.len + 2 > this.buf.length) {
      const next = Buffer.alloc(this.buf.length * 2);
      this.buf.copy(next, 0, 0, this.len);
      this.buf = next;
    }
    this.buf[this.len++] = b;
    if (b === 0xff) this.buf[this.len++] = 0; // byte stuffing
  }
  write(code: number, size: number): void {
    for (let i = size - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((code >> i) & 1);
      if (++this.n === 8) {
        this.byte(this.acc);
        this.acc = 0;
        this.n = 0;
      }
    }
  }
  finish(): Buffer {
    if (this.n > 0) this.write((1 << (8 - this.n)) - 1, 8 - this.n); // pad with ones
    return this.buf.subarray(0, this.len);
  }
}

function magnitude(v: number): [number, number] {
  const a = v < 0 ? -v : v;
  let cat = 0;
  while (a >> cat) cat++;
  return [cat, v < 0 ? v + (1 << cat) - 1 : v];
}

/** Encodes RGB (width × height × 3) as a baseline JPEG with the given tables; `exif` = an APP1 segment. */
export async function encodeJpegWithTables(
  img: { width: number; height: number; rgb: Uint8Array },
  tables: EncodeTables,
  exif: Buffer | null = null,
): Promise<Buffer> {
  const std = await (standard ??= standardSegments());
  const { width: W, height: H, rgb } = img;
  const [hs, vs] = tables.sampling;
  const mcuW = 8 * hs;
  const mcuH = 8 * vs;
  const mcusX = Math.ceil(W / mcuW);
  const mcusY = Math.ceil(H / mcuH);
  const PW = mcusX * mcuW;
  const PH = mcusY * mcuH;
  // libjpeg's RGB → YCbCr (jccolor.c fixed point), edge pixels replicated into the MCU padding.
  const Y = new Uint8Array(PW * PH);
  const Cb = new Uint8Array(PW * PH);
  const Cr = new Uint8Array(PW * PH);
  for (let y = 0; y < PH; y++) {
    const sy = Math.min(y, H - 1);
    for (let x = 0; x < PW; x++) {
      const j = (sy * W + Math.min(x, W - 1)) * 3;
      const r = rgb[j]!;
      const g = rgb[j + 1]!;
      const b = rgb[j + 2]!;
      const o = y * PW + x;
      Y[o] = (19595 * r + 38470 * g + 7471 * b + 32768) >> 16;
      Cb[o] = (-11059 * r - 21709 * g + 32768 * b + (128 << 16) + 32767) >> 16;
      Cr[o] = (32768 * r - 27439 * g - 5329 * b + (128 << 16) + 32767) >> 16;
    }
  }
  // libjpeg's downsampling (jcsample.c): box average with alternating bias.
  const CW = PW / hs;
  const CH = PH / vs;
  const down = (plane: Uint8Array): Uint8Array => {
    if (hs === 1 && vs === 1) return plane;
    const out = new Uint8Array(CW * CH);
    for (let y = 0; y < CH; y++) {
      for (let x = 0; x < CW; x++) {
        let s = 0;
        for (let dy = 0; dy < vs; dy++) for (let dx = 0; dx < hs; dx++) s += plane[(y * vs + dy) * PW + x * hs + dx]!;
        const bias = hs * vs === 4 ? (x & 1 ? 2 : 1) : x & 1;
        out[y * CW + x] = (s + bias) >> (hs * vs === 4 ? 2 : 1);
      }
    }
    return out;
  };
  const cb = down(Cb);
  const cr = down(Cr);
  const qL = Uint16Array.from(tables.luma);
  const qC = Uint16Array.from(tables.chroma);
  const bw = new BitWriter();
  const block = new Int32Array(64);
  const zz = new Int32Array(64);
  const pred = [0, 0, 0];
  const encodeBlock = (plane: Uint8Array, stride: number, bx: number, by: number, q: Uint16Array, comp: number, dc: Huffman, ac: Huffman) => {
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) block[y * 8 + x] = plane[(by + y) * stride + bx + x]! - 128;
    fdctIslow(block);
    for (let k = 0; k < 64; k++) zz[k] = quantizeIslow(block[ZIGZAG[k]!]!, q[ZIGZAG[k]!]!);
    const diff = zz[0]! - pred[comp]!;
    pred[comp] = zz[0]!;
    const [cat, bits] = magnitude(diff);
    bw.write(dc.code[cat]!, dc.size[cat]!);
    if (cat) bw.write(bits, cat);
    let run = 0;
    for (let k = 1; k < 64; k++) {
      const v = zz[k]!;
      if (v === 0) {
        run++;
        continue;
      }
      while (run > 15) {
        bw.write(ac.code[0xf0]!, ac.size[0xf0]!);
        run -= 16;
      }
      const [c, b] = magnitude(v);
      const sym = (run << 4) | c;
      bw.write(ac.code[sym]!, ac.size[sym]!);
      bw.write(b, c);
      run = 0;
    }
    if (run > 0) bw.write(ac.code[0]!, ac.size[0]!);
  };
  const { dc0, ac0, dc1, ac1 } = std.huffman;
  for (let my = 0; my < mcusY; my++) {
    for (let mx = 0; mx < mcusX; mx++) {
      for (let v = 0; v < vs; v++) for (let h = 0; h < hs; h++) encodeBlock(Y, PW, mx * mcuW + h * 8, my * mcuH + v * 8, qL, 0, dc0, ac0);
      encodeBlock(cb, CW, mx * 8, my * 8, qC, 1, dc1, ac1);
      encodeBlock(cr, CW, mx * 8, my * 8, qC, 2, dc1, ac1);
    }
  }
  const scan = bw.finish();
  const dqt = (id: number, q: Uint16Array) => {
    const s = Buffer.alloc(69);
    s.writeUInt16BE(0xffdb, 0);
    s.writeUInt16BE(67, 2);
    s[4] = id;
    for (let k = 0; k < 64; k++) s[5 + k] = q[ZIGZAG[k]!]!;
    return s;
  };
  const sof = Buffer.from([0xff, 0xc0, 0, 17, 8, H >> 8, H & 255, W >> 8, W & 255, 3, 1, (hs << 4) | vs, 0, 2, 0x11, 1, 3, 0x11, 1]);
  const sos = Buffer.from([0xff, 0xda, 0, 12, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]);
  const jfif = Buffer.from([0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), exif ?? jfif, dqt(0, qL), dqt(1, qC), sof, ...std.dht, sos, scan, Buffer.from([0xff, 0xd9])]);
}
