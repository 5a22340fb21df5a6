/**
 * Grey-level running max (dilation) and min (erosion) along rows or columns, the morphology under
 * the MRZ locator's text mask and line joins (locate.ts) and the capture advisor, which run them
 * some thirty times per angle on a 1000-pixel working image.
 *
 * The window of output `i` is [i − ⌊k/2⌋, i + ⌊k/2⌋] clipped to the image (an even `k` gets the
 * odd window k + 1, as the monotone-deque filter this replaces did; the output is the same byte
 * for byte, pinned by morphology.test.ts). van Herk / Gil-Werman: the padded line is cut into
 * blocks of the window's size, each block gets running prefix and suffix extremes, and every
 * window is the extreme of one suffix and one prefix: three comparisons per pixel whatever `k`.
 * Columns are filtered a whole row at a time, so both directions read memory in order; the deque
 * walked each column with a stride of the image width, and its CPU was half the document engine's.
 */
export function runFilter(src: Uint8Array, w: number, h: number, k: number, horizontal: boolean, max: boolean): Uint8Array {
  const half = Math.floor(k / 2);
  if (half <= 0 || w === 0 || h === 0) return Uint8Array.from(src);
  // The 2×2 opening of the line search (window 3): one pass comparing neighbours directly.
  if (half === 1) return horizontal ? rowsOf3(src, w, h, max) : columnsOf3(src, w, h, max);
  return horizontal ? alongRows(src, w, h, half, max) : alongColumns(src, w, h, half, max);
}

function rowsOf3(src: Uint8Array, w: number, h: number, max: boolean): Uint8Array {
  const dst = new Uint8Array(src.length);
  if (w === 1) { dst.set(src); return dst; }
  for (let y = 0; y < h; y++) {
    const r = y * w, last = r + w - 1;
    let p = src[r]!, c = src[r + 1]!;
    dst[r] = max ? (p > c ? p : c) : (p < c ? p : c);
    if (max) {
      for (let i = r + 1; i < last; i++) { const n = src[i + 1]!; let a = p > c ? p : c; if (n > a) a = n; dst[i] = a; p = c; c = n; }
    } else {
      for (let i = r + 1; i < last; i++) { const n = src[i + 1]!; let a = p < c ? p : c; if (n < a) a = n; dst[i] = a; p = c; c = n; }
    }
    dst[last] = max ? (p > c ? p : c) : (p < c ? p : c);
  }
  return dst;
}

function columnsOf3(src: Uint8Array, w: number, h: number, max: boolean): Uint8Array {
  const dst = new Uint8Array(src.length);
  for (let y = 0; y < h; y++) {
    const r = y * w, up = y > 0 ? r - w : r, down = y < h - 1 ? r + w : r;
    if (max) for (let x = 0; x < w; x++) { let a = src[r + x]!; const u = src[up + x]!, d = src[down + x]!; if (u > a) a = u; if (d > a) a = d; dst[r + x] = a; }
    else for (let x = 0; x < w; x++) { let a = src[r + x]!; const u = src[up + x]!, d = src[down + x]!; if (u < a) a = u; if (d < a) a = d; dst[r + x] = a; }
  }
  return dst;
}

/** Each row on its own: prefix and suffix extremes over blocks of the padded row. */
function alongRows(src: Uint8Array, w: number, h: number, half: number, max: boolean): Uint8Array {
  const win = 2 * half + 1;
  const len = w + 2 * half;
  // The padding is the operation's identity, so a clipped window equals a padded one.
  const pad = max ? 0 : 255;
  const line = new Uint8Array(len).fill(pad);
  const pre = new Uint8Array(len);
  const suf = new Uint8Array(len);
  const dst = new Uint8Array(src.length);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    line.set(src.subarray(row, row + w), half);
    for (let b = 0; b < len; b += win) {
      const e = Math.min(b + win, len) - 1;
      let acc = line[b]!;
      pre[b] = acc;
      if (max) {
        for (let j = b + 1; j <= e; j++) { const v = line[j]!; if (v > acc) acc = v; pre[j] = acc; }
        acc = line[e]!; suf[e] = acc;
        for (let j = e - 1; j >= b; j--) { const v = line[j]!; if (v > acc) acc = v; suf[j] = acc; }
      } else {
        for (let j = b + 1; j <= e; j++) { const v = line[j]!; if (v < acc) acc = v; pre[j] = acc; }
        acc = line[e]!; suf[e] = acc;
        for (let j = e - 1; j >= b; j--) { const v = line[j]!; if (v < acc) acc = v; suf[j] = acc; }
      }
    }
    const off = win - 1;
    if (max) for (let i = 0; i < w; i++) { const a = suf[i]!, c = pre[i + off]!; dst[row + i] = a > c ? a : c; }
    else for (let i = 0; i < w; i++) { const a = suf[i]!, c = pre[i + off]!; dst[row + i] = a < c ? a : c; }
  }
  return dst;
}

let scratchPre = new Uint8Array(0), scratchSuf = new Uint8Array(0);
function scratch(size: number): { pre: Uint8Array; suf: Uint8Array } {
  if (scratchPre.length < size) {
    scratchPre = new Uint8Array(size);
    scratchSuf = new Uint8Array(size);
  }
  return { pre: scratchPre, suf: scratchSuf };
}

/** The same over rows as elements: each step combines two whole rows, in memory order. */
function alongColumns(src: Uint8Array, w: number, h: number, half: number, max: boolean): Uint8Array {
  const win = 2 * half + 1;
  const len = h + 2 * half;
  const pad = max ? 0 : 255;
  // Scratch reused across calls (every row of both is written before it is read): two image-sized
  // buffers per column pass would otherwise be garbage a few milliseconds later, and large
  // short-lived buffers are what drives V8's full collections in the engine threads.
  const { pre, suf } = scratch(len * w);
  // Padded row j is source row j − half, or the identity outside the image.
  const put = (dst: Uint8Array, j: number) => {
    const y = j - half;
    if (y < 0 || y >= h) dst.fill(pad, j * w, (j + 1) * w);
    else dst.set(src.subarray(y * w, (y + 1) * w), j * w);
  };
  const combine = (dst: Uint8Array, j: number, from: number) => {
    // dst row j = op(dst row `from`, padded row j)
    const y = j - half, o = j * w, f = from * w;
    if (y < 0 || y >= h) {
      // The identity leaves the running extreme as it was.
      dst.copyWithin(o, f, f + w);
      return;
    }
    const s = y * w;
    if (max) for (let x = 0; x < w; x++) { const a = dst[f + x]!, v = src[s + x]!; dst[o + x] = v > a ? v : a; }
    else for (let x = 0; x < w; x++) { const a = dst[f + x]!, v = src[s + x]!; dst[o + x] = v < a ? v : a; }
  };
  for (let b = 0; b < len; b += win) {
    const e = Math.min(b + win, len) - 1;
    put(pre, b);
    for (let j = b + 1; j <= e; j++) combine(pre, j, j - 1);
    put(suf, e);
    for (let j = e - 1; j >= b; j--) combine(suf, j, j + 1);
  }
  const dst = new Uint8Array(src.length);
  const off = (win - 1) * w;
  if (max) for (let i = 0; i < src.length; i++) { const a = suf[i]!, c = pre[i + off]!; dst[i] = a > c ? a : c; }
  else for (let i = 0; i < src.length; i++) { const a = suf[i]!, c = pre[i + off]!; dst[i] = a < c ? a : c; }
  return dst;
}

/**
 * `runFilter` along rows for a 0/1 mask (the line search's joins): each run of the value that
 * spreads (1 for a dilation, 0 for an erosion) is widened by ⌊k/2⌋ on both sides with a fill.
 * The same output as `runFilter` on such a mask, in a fraction of its time on sparse text masks.
 */
export function binaryRowFilter(src: Uint8Array, w: number, h: number, k: number, max: boolean): Uint8Array {
  const half = Math.floor(k / 2);
  if (half <= 0 || w === 0 || h === 0) return Uint8Array.from(src);
  const spread = max ? 1 : 0;
  const dst = new Uint8Array(src.length).fill(1 - spread);
  for (let y = 0; y < h; y++) {
    const r = y * w, end = r + w;
    let i = r;
    while (i < end) {
      if (src[i] !== spread) { i++; continue; }
      const s = i;
      while (i < end && src[i] === spread) i++;
      dst.fill(spread, Math.max(r, s - half), Math.min(end, i + half));
    }
  }
  return dst;
}
