import sharp from 'sharp';
import { homography, warp, type Point, type RawImage } from './warp.js';

export interface Located {
  /** Document corners TL, TR, BR, BL in the working image, or null when the whole frame is the document. */
  quad: Point[] | null;
  /** Width / height of the found document, before rectification. */
  aspect: number;
  image: RawImage;
}

const SMALL = 480;

function downscale(img: RawImage, scale: number): RawImage {
  const w = Math.max(1, Math.round(img.width * scale)), h = Math.max(1, Math.round(img.height * scale));
  const out = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const sx = Math.min(img.width - 1, Math.floor(x / scale)), sy = Math.min(img.height - 1, Math.floor(y / scale));
    const s = (sy * img.width + sx) * img.channels, o = (y * w + x) * 3;
    out[o] = img.data[s]!; out[o + 1] = img.data[s + 1]!; out[o + 2] = img.data[s + 2]!;
  }
  return { data: out, width: w, height: h, channels: 3 };
}

const median = (v: number[]) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

/**
 * Finds a document lying on a background that differs from it (the usual phone photo): the
 * background colour comes from the frame's border, the document is the largest connected region
 * unlike it, and its corners are the region's extreme points along the two diagonals. A flat
 * scan (no background) keeps the whole frame.
 */
export function findDocumentQuad(img: RawImage): Point[] | null {
  const scale = Math.min(1, SMALL / Math.max(img.width, img.height));
  const s = downscale(img, scale);
  const { width: w, height: h, data } = s;
  const border: number[][] = [[], [], []];
  for (let x = 0; x < w; x++) for (const y of [0, 1, h - 2, h - 1]) for (let c = 0; c < 3; c++) border[c]!.push(data[(y * w + x) * 3 + c]!);
  for (let y = 0; y < h; y++) for (const x of [0, 1, w - 2, w - 1]) for (let c = 0; c < 3; c++) border[c]!.push(data[(y * w + x) * 3 + c]!);
  const bg = border.map((v) => median([...v]));
  const spread = median(border[0]!.map((v, i) => Math.abs(v - bg[0]!) + Math.abs(border[1]![i]! - bg[1]!) + Math.abs(border[2]![i]! - bg[2]!)));
  const threshold = Math.max(60, spread * 4);
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) {
    const d = Math.abs(data[i * 3]! - bg[0]!) + Math.abs(data[i * 3 + 1]! - bg[1]!) + Math.abs(data[i * 3 + 2]! - bg[2]!);
    mask[i] = d > threshold ? 1 : 0;
  }
  // Largest 4-connected component: glare on the table or objects nearby do not join the document.
  const label = new Int32Array(w * h);
  let best = 0, bestLabel = 0, next = 0;
  const stack: number[] = [];
  for (let i = 0; i < w * h; i++) {
    if (!mask[i] || label[i]) continue;
    next++;
    let count = 0;
    stack.push(i);
    label[i] = next;
    while (stack.length) {
      const p = stack.pop()!;
      count++;
      const x = p % w, y = (p - x) / w;
      for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, y > 0 ? p - w : -1, y < h - 1 ? p + w : -1]) {
        if (q >= 0 && mask[q] && !label[q]) { label[q] = next; stack.push(q); }
      }
    }
    if (count > best) { best = count; bestLabel = next; }
  }
  if (best < 0.15 * w * h || best > 0.97 * w * h) return null;
  const ext = { tl: [Infinity, 0, 0], tr: [-Infinity, 0, 0], br: [-Infinity, 0, 0], bl: [Infinity, 0, 0] };
  for (let i = 0; i < w * h; i++) {
    if (label[i] !== bestLabel) continue;
    const x = i % w, y = (i - x) / w;
    if (x + y < ext.tl[0]!) ext.tl = [x + y, x, y];
    if (x - y > ext.tr[0]!) ext.tr = [x - y, x, y];
    if (x + y > ext.br[0]!) ext.br = [x + y, x, y];
    if (x - y < ext.bl[0]!) ext.bl = [x - y, x, y];
  }
  // Corners found by extreme pixels sit half a pixel in; scale back to the working image.
  const q = [ext.tl, ext.tr, ext.br, ext.bl].map(([, x, y], k) => [
    ((x! + (k === 1 || k === 2 ? 1 : 0)) / scale), ((y! + (k >= 2 ? 1 : 0)) / scale),
  ] as Point);
  const top = Math.hypot(q[1]![0] - q[0]![0], q[1]![1] - q[0]![1]);
  const left = Math.hypot(q[3]![0] - q[0]![0], q[3]![1] - q[0]![1]);
  if (top < 0.2 * img.width || left < 0.1 * img.height) return null;
  // A document photographed in portrait: start the corner list at the visual top-left of the text.
  return top >= left ? q : [q[3]!, q[0]!, q[1]!, q[2]!];
}

/** True when the quad is an upright rectangle to within a pixel: then a native crop and resize is exact. */
function isUprightRectangle(q: Point[]): boolean {
  const near = (u: number, v: number) => Math.abs(u - v) <= 1.5;
  return near(q[0]![1], q[1]![1]) && near(q[3]![1], q[2]![1]) && near(q[0]![0], q[3]![0]) && near(q[1]![0], q[2]![0]);
}

/**
 * Rectifies the document to the template's size. Upright documents (flat
 * scans, square-on photos) take a native crop and resize; tilted ones the JS perspective warp.
 */
export async function locateDocument(img: RawImage, target: { width: number; height: number }): Promise<Located> {
  const quad = findDocumentQuad(img);
  const src: Point[] = quad ?? [[0, 0], [img.width, 0], [img.width, img.height], [0, img.height]];
  // Mean of opposite edges: a tilted camera shortens one edge of each pair and lengthens the other.
  const edge = (a: Point, b: Point) => Math.hypot(b[0] - a[0], b[1] - a[1]);
  const topEdge = (edge(src[0]!, src[1]!) + edge(src[3]!, src[2]!)) / 2;
  const leftEdge = (edge(src[0]!, src[3]!) + edge(src[1]!, src[2]!)) / 2;
  const dst: Point[] = [[0, 0], [target.width, 0], [target.width, target.height], [0, target.height]];
  if (isUprightRectangle(src)) {
    const left = Math.max(0, Math.round(src[0]![0])), top = Math.max(0, Math.round(src[0]![1]));
    const width = Math.min(img.width - left, Math.round(src[1]![0] - src[0]![0])), height = Math.min(img.height - top, Math.round(src[3]![1] - src[0]![1]));
    const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
      .extract({ left, top, width, height }).resize(target.width, target.height, { fit: 'fill' })
      .raw().toBuffer({ resolveWithObject: true });
    return { quad, aspect: topEdge / leftEdge, image: { data, width: info.width, height: info.height, channels: 3 } };
  }
  const toSource = homography(dst, src);
  return { quad, aspect: topEdge / leftEdge, image: warp(img, toSource, target.width, target.height, [255, 255, 255]) };
}
