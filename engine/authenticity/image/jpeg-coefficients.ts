import { parseDqtSegment, ZIGZAG } from '../metadata/jpeg-structure.js';

/**
 * Reads the quantised DCT coefficients of the luma (first) component straight from a baseline
 * JPEG's entropy-coded data: the exact integers the last encoder wrote. Compression forensics on
 * these is exact, where coefficients re-derived from decoded pixels carry rounding noise that
 * hides the fine double-quantisation traces of high-quality saves (steps of 1–3).
 *
 * Scope: Huffman-coded sequential and progressive JPEG (SOF0/SOF1/SOF2), 8-bit, any sampling
 * factors, interleaved or single-component scans, restart intervals. Progressive files hold the
 * same quantised coefficients in several passes, so re-saving "as progressive" hides nothing.
 * Arithmetic coding, lossless and hierarchical files return null: the caller falls back to
 * pixel-domain analysis. `readLumaCoefficients` keeps the luma plane only (scans without luma are
 * skipped); `readAllCoefficients` (settings v7) keeps every component.
 */
export interface LumaCoefficients {
  /** Blocks per row and per column of the luma plane (covering the image, edge blocks included). */
  blocksWide: number;
  blocksHigh: number;
  /** blocksWide × blocksHigh × 64 quantised values, each block in natural (row-major) order. */
  coefficients: Int16Array;
  /** The luma quantisation table, natural order. */
  table: Uint16Array;
}

interface Huffman {
  /** Fast table over the first 9 bits: symbol | (length << 8), or -1. */
  fast: Int32Array;
  maxCode: Int32Array;
  valPtr: Int32Array;
  minCode: Int32Array;
  values: Uint8Array;
}

const FAST_BITS = 9;

function buildHuffman(counts: Uint8Array, values: Uint8Array): Huffman {
  const fast = new Int32Array(1 << FAST_BITS).fill(-1);
  const maxCode = new Int32Array(18).fill(-1);
  const valPtr = new Int32Array(17);
  const minCode = new Int32Array(17);
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    valPtr[len] = k;
    minCode[len] = code;
    for (let i = 0; i < counts[len - 1]!; i++) {
      const symbol = values[k]!;
      if (len <= FAST_BITS) {
        const shift = FAST_BITS - len;
        for (let f = code << shift; f < (code + 1) << shift; f++) fast[f] = symbol | (len << 8);
      }
      code++;
      k++;
    }
    maxCode[len] = counts[len - 1]! ? code - 1 : -1;
    code <<= 1;
  }
  return { fast, maxCode, valPtr, minCode, values };
}

class BitReader {
  private pos: number;
  private acc = 0;
  private bits = 0;
  /** Set once a marker is met inside the scan: from then on zeros are fed (as libjpeg does). */
  marker = -1;
  constructor(
    private readonly data: Uint8Array,
    start: number,
  ) {
    this.pos = start;
  }
  get position(): number {
    return this.pos;
  }
  private fill(): void {
    while (this.bits <= 24) {
      let byte = 0;
      if (this.marker < 0 && this.pos < this.data.length) {
        byte = this.data[this.pos]!;
        if (byte === 0xff) {
          const next = this.data[this.pos + 1];
          if (next === 0x00) this.pos += 2;
          else {
            this.marker = next ?? 0xd9;
            byte = 0;
          }
        } else this.pos++;
      }
      this.acc = ((this.acc << 8) | byte) >>> 0;
      this.bits += 8;
    }
  }
  peek(n: number): number {
    if (this.bits < n) this.fill();
    return (this.acc >>> (this.bits - n)) & ((1 << n) - 1);
  }
  skip(n: number): void {
    this.bits -= n;
  }
  read(n: number): number {
    if (n === 0) return 0;
    const v = this.peek(n);
    this.bits -= n;
    return v;
  }
  /** Byte-aligns and consumes an RSTn marker (restart interval boundary). */
  restart(): void {
    this.bits = 0;
    this.acc = 0;
    if (this.marker >= 0xd0 && this.marker <= 0xd7) {
      this.pos += 2;
      this.marker = -1;
      return;
    }
    // Marker not yet seen by the reader: scan to it.
    while (this.pos + 1 < this.data.length && !(this.data[this.pos] === 0xff && this.data[this.pos + 1]! >= 0xd0 && this.data[this.pos + 1]! <= 0xd7)) this.pos++;
    this.pos += 2;
    this.marker = -1;
  }
}

function decodeSymbol(r: BitReader, h: Huffman): number {
  const f = h.fast[r.peek(FAST_BITS)]!;
  if (f >= 0) {
    r.skip(f >> 8);
    return f & 0xff;
  }
  let code = 0;
  for (let len = 1; len <= 16; len++) {
    code = (code << 1) | r.read(1);
    if (code <= h.maxCode[len]!) return h.values[h.valPtr[len]! + code - h.minCode[len]!]!;
  }
  throw new Error('bad Huffman code');
}

function extend(v: number, n: number): number {
  return v < 1 << (n - 1) ? v - (1 << n) + 1 : v;
}

interface Component {
  id: number;
  h: number;
  v: number;
  tq: number;
  blocksWide: number;
  blocksHigh: number;
}

/** Returns null for anything outside the supported scope (see above) or on corrupt data. */
export function readLumaCoefficients(bytes: Uint8Array): LumaCoefficients | null {
  try {
    return read(bytes, false)?.[0] ?? null;
  } catch {
    return null;
  }
}

/** One component's quantised coefficients, with its sampling factors. */
export interface ComponentCoefficients extends LumaCoefficients {
  h: number;
  v: number;
}

/**
 * Every component's coefficients (luma first, then chroma in frame order; settings v7 reads the
 * chroma planes too). The luma plane is exactly `readLumaCoefficients`'. Null as above; a
 * grayscale file gives one component.
 */
export function readAllCoefficients(bytes: Uint8Array): ComponentCoefficients[] | null {
  try {
    return read(bytes, true);
  } catch {
    return null;
  }
}

function read(d: Uint8Array, allComponents: boolean): ComponentCoefficients[] | null {
  if (d[0] !== 0xff || d[1] !== 0xd8) return null;
  const tables = new Map<number, Uint16Array>();
  const dc = new Map<number, Huffman>();
  const ac = new Map<number, Huffman>();
  let components: Component[] = [];
  let width = 0;
  let height = 0;
  let restartInterval = 0;
  let out: Int16Array | null = null;
  let outs: (Int16Array | null)[] = [];
  let luma: Component | null = null;
  let hMax = 1;
  let vMax = 1;
  let progressive = false;
  let pos = 2;
  while (pos + 4 <= d.length) {
    if (d[pos] !== 0xff) return null;
    const marker = d[pos + 1]!;
    if (marker === 0xff) {
      pos++;
      continue;
    }
    if (marker === 0xd9) break;
    const len = (d[pos + 2]! << 8) | d[pos + 3]!;
    const seg = pos + 4;
    const end = pos + 2 + len;
    if (end > d.length) return null;
    if (marker === 0xdb) {
      for (const t of parseDqtSegment(d, seg, end)) tables.set(t.id, t.values);
    } else if (marker === 0xc4) {
      let p = seg;
      while (p < end) {
        const tc = d[p]! >> 4;
        const th = d[p]! & 15;
        const counts = d.subarray(p + 1, p + 17);
        let total = 0;
        for (const c of counts) total += c;
        const values = d.slice(p + 17, p + 17 + total);
        (tc === 0 ? dc : ac).set(th, buildHuffman(counts, values));
        p += 17 + total;
      }
    } else if (marker === 0xdd) {
      restartInterval = (d[seg]! << 8) | d[seg + 1]!;
    } else if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      progressive = marker === 0xc2;
      if (d[seg] !== 8) return null;
      height = (d[seg + 1]! << 8) | d[seg + 2]!;
      width = (d[seg + 3]! << 8) | d[seg + 4]!;
      const n = d[seg + 5]!;
      components = [];
      for (let i = 0; i < n; i++) {
        const b = seg + 6 + i * 3;
        components.push({ id: d[b]!, h: d[b + 1]! >> 4, v: d[b + 1]! & 15, tq: d[b + 2]!, blocksWide: 0, blocksHigh: 0 });
      }
      hMax = Math.max(...components.map((c) => c.h));
      vMax = Math.max(...components.map((c) => c.v));
      for (const c of components) {
        c.blocksWide = Math.ceil(Math.ceil((width * c.h) / hMax) / 8);
        c.blocksHigh = Math.ceil(Math.ceil((height * c.v) / vMax) / 8);
      }
      luma = components[0] ?? null;
      if (!luma || width === 0 || height === 0) return null;
      out = new Int16Array(luma.blocksWide * luma.blocksHigh * 64);
      outs = components.map((c, i) => (i === 0 ? out : allComponents ? new Int16Array(c.blocksWide * c.blocksHigh * 64) : null));
    } else if (marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8) {
      return null; // lossless, hierarchical or arithmetic: out of scope
    } else if (marker === 0xda) {
      if (!out || !luma) return null;
      const ns = d[seg]!;
      const scan: ScanComponent[] = [];
      for (let i = 0; i < ns; i++) {
        const cid = d[seg + 1 + i * 2]!;
        const sel = d[seg + 2 + i * 2]!;
        const c = components.find((x) => x.id === cid);
        if (!c) return null;
        scan.push({ c, dc: dc.get(sel >> 4) ?? null, ac: ac.get(sel & 15) ?? null });
      }
      const p = seg + 1 + ns * 2;
      const spectral = { ss: d[p]!, se: d[p + 1]!, ah: d[p + 2]! >> 4, al: d[p + 2]! & 15 };
      if (!progressive) Object.assign(spectral, { ss: 0, se: 63, ah: 0, al: 0 });
      const r = new BitReader(d, end);
      // A scan without a kept component changes nothing we keep: walk past its entropy-coded data.
      if (scan.some((x) => outs[components.indexOf(x.c)])) {
        const kept = scan.map((x) => outs[components.indexOf(x.c)] ?? null);
        decodeScan(r, scan, spectral, progressive, { width, height, hMax, vMax, luma }, kept, restartInterval);
      }
      pos = r.position;
      // Continue the marker walk from the next marker after the scan.
      while (pos + 1 < d.length && !(d[pos] === 0xff && d[pos + 1] !== 0 && !(d[pos + 1]! >= 0xd0 && d[pos + 1]! <= 0xd7))) pos++;
      continue;
    }
    pos = end;
  }
  if (!out || !luma) return null;
  const result: ComponentCoefficients[] = [];
  for (const [i, c] of components.entries()) {
    const coefficients = outs[i];
    if (!coefficients) continue;
    const table = tables.get(c.tq);
    if (!table) {
      if (i === 0) return null;
      continue;
    }
    result.push({ blocksWide: c.blocksWide, blocksHigh: c.blocksHigh, coefficients, table, h: c.h, v: c.v });
  }
  return result;
}

interface Frame {
  width: number;
  height: number;
  /** Largest sampling factors: an interleaved MCU covers 8·hMax × 8·vMax pixels. */
  hMax: number;
  vMax: number;
  luma: Component;
}

interface ScanComponent {
  c: Component;
  dc: Huffman | null;
  ac: Huffman | null;
}

interface Spectral {
  ss: number;
  se: number;
  ah: number;
  al: number;
}

function need(h: Huffman | null): Huffman {
  if (!h) throw new Error('missing Huffman table');
  return h;
}

/**
 * One scan. Sequential scans decode whole blocks; progressive scans (ITU T.81 G.1.2, as in
 * libjpeg's jdphuff.c) decode a DC first pass, a DC refinement bit, an AC spectral band or an AC
 * refinement pass into the coefficients already stored. Blocks of other components in an
 * interleaved scan go to a scratch block (their DC passes do not depend on earlier values).
 */
function decodeScan(
  r: BitReader,
  scan: ScanComponent[],
  sp: Spectral,
  progressive: boolean,
  frame: Frame,
  outs: (Int16Array | null)[],
  restartInterval: number,
): void {
  const pred = new Int32Array(scan.length);
  const scratch = new Int16Array(64);
  // The tables this kind of scan uses, checked once (a DC refinement pass reads raw bits, no table).
  const dcTables = !progressive || (sp.ss === 0 && sp.ah === 0) ? scan.map((s) => need(s.dc)) : [];
  const acTables = !progressive || sp.ss > 0 ? scan.map((s) => need(s.ac)) : [];
  let eobrun = 0;
  const p1 = 1 << sp.al;
  const m1 = -1 << sp.al;

  const sequential = (k: number, block: Int16Array, base: number): void => {
    block.fill(0, base, base + 64);
    const t = decodeSymbol(r, dcTables[k]!);
    pred[k] = pred[k]! + (t === 0 ? 0 : extend(r.read(t), t));
    block[base] = pred[k]!;
    const acTable = acTables[k]!;
    for (let z = 1; z < 64; ) {
      const rs = decodeSymbol(r, acTable);
      const run = rs >> 4;
      const size = rs & 15;
      if (size === 0) {
        if (run === 15) {
          z += 16;
          continue;
        }
        break;
      }
      z += run;
      if (z > 63) throw new Error('coefficient index out of range');
      block[base + ZIGZAG[z]!] = extend(r.read(size), size);
      z++;
    }
  };
  const dcFirst = (k: number, block: Int16Array, base: number): void => {
    const t = decodeSymbol(r, dcTables[k]!);
    pred[k] = pred[k]! + (t === 0 ? 0 : extend(r.read(t), t));
    block[base] = pred[k]! * p1;
  };
  const dcRefine = (_k: number, block: Int16Array, base: number): void => {
    if (r.read(1)) block[base] = block[base]! | p1;
  };
  const acFirst = (k: number, block: Int16Array, base: number): void => {
    if (eobrun > 0) {
      eobrun--;
      return;
    }
    const table = acTables[k]!;
    for (let z = sp.ss; z <= sp.se; z++) {
      const rs = decodeSymbol(r, table);
      const run = rs >> 4;
      const size = rs & 15;
      if (size === 0) {
        if (run < 15) {
          eobrun = (1 << run) - 1;
          if (run) eobrun += r.read(run);
          break;
        }
        z += 15;
        continue;
      }
      z += run;
      if (z > 63) throw new Error('coefficient index out of range');
      block[base + ZIGZAG[z]!] = extend(r.read(size), size) * p1;
    }
  };
  const refineBit = (block: Int16Array, i: number): void => {
    const v = block[i]!;
    if (r.read(1) && (v & p1) === 0) block[i] = v >= 0 ? v + p1 : v + m1;
  };
  const acRefine = (k: number, block: Int16Array, base: number): void => {
    let z = sp.ss;
    if (eobrun === 0) {
      const table = acTables[k]!;
      for (; z <= sp.se; z++) {
        const rs = decodeSymbol(r, table);
        let run = rs >> 4;
        let value = 0;
        if (rs & 15) value = r.read(1) ? p1 : m1;
        else if (run !== 15) {
          eobrun = 1 << run;
          if (run) eobrun += r.read(run);
          break;
        }
        while (z <= sp.se) {
          const i = base + ZIGZAG[z]!;
          if (block[i] !== 0) refineBit(block, i);
          else if (--run < 0) break;
          z++;
        }
        if (value && z <= 63) block[base + ZIGZAG[z]!] = value;
      }
    }
    if (eobrun > 0) {
      for (; z <= sp.se; z++) {
        const i = base + ZIGZAG[z]!;
        if (block[i] !== 0) refineBit(block, i);
      }
      eobrun--;
    }
  };
  const decodeBlock = !progressive ? sequential : sp.ss === 0 ? (sp.ah === 0 ? dcFirst : dcRefine) : sp.ah === 0 ? acFirst : acRefine;

  const visit = (k: number, bx: number, by: number): void => {
    const c = scan[k]!.c;
    const out = outs[k];
    if (out && bx < c.blocksWide && by < c.blocksHigh) decodeBlock(k, out, (by * c.blocksWide + bx) * 64);
    else decodeBlock(k, scratch.fill(0), 0); // a component not kept, or a padding block of a partial MCU
  };
  let mcus: number;
  let mcusWide: number;
  if (scan.length === 1) {
    // Non-interleaved: blocks of this component only, in raster order.
    const c = scan[0]!.c;
    mcusWide = c.blocksWide;
    mcus = c.blocksWide * c.blocksHigh;
  } else {
    mcusWide = Math.ceil(frame.width / (8 * frame.hMax));
    mcus = mcusWide * Math.ceil(frame.height / (8 * frame.vMax));
  }
  for (let m = 0; m < mcus; m++) {
    if (restartInterval && m > 0 && m % restartInterval === 0) {
      r.restart();
      pred.fill(0);
      eobrun = 0;
    }
    const mx = m % mcusWide;
    const my = Math.floor(m / mcusWide);
    if (scan.length === 1) {
      visit(0, mx, my);
      continue;
    }
    for (let k = 0; k < scan.length; k++) {
      const c = scan[k]!.c;
      for (let v = 0; v < c.v; v++) for (let h = 0; h < c.h; h++) visit(k, mx * c.h + h, my * c.v + v);
    }
  }
}
