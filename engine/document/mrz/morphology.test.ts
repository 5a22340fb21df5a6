import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../tools/corpus/random.js';
import { binaryRowFilter, runFilter } from './morphology.js';

/**
 * The monotone-deque filter that document engines up to 2.6 shipped with (locate.ts before the
 * van Herk / Gil-Werman rewrite), kept here as the reference: released settings versions must
 * compute the same bytes, so the faster filters are pinned to it exactly.
 */
function dequeFilter(src: Uint8Array, w: number, h: number, k: number, horizontal: boolean, max: boolean): Uint8Array {
  const dst = new Uint8Array(src.length);
  const n = horizontal ? w : h;
  const m = horizontal ? h : w;
  const stride = horizontal ? 1 : w;
  const half = Math.floor(k / 2);
  const q = new Int32Array(n);
  for (let j = 0; j < m; j++) {
    const base = horizontal ? j * w : j;
    let head = 0, tail = 0;
    let next = 0;
    for (let i = 0; i < n; i++) {
      const hi = Math.min(n - 1, i + half);
      while (next <= hi) {
        const v = src[base + next * stride]!;
        while (tail > head && (max ? src[base + q[tail - 1]! * stride]! <= v : src[base + q[tail - 1]! * stride]! >= v)) tail--;
        q[tail++] = next++;
      }
      while (q[head]! < i - half) head++;
      dst[base + i * stride] = src[base + q[head]! * stride]!;
    }
  }
  return dst;
}

/** A seeded generator (mulberry32, tools/corpus/random.ts), so a failure names an input that can be rebuilt. */
const rng = (seed: number): (() => number) => mulberry32(seed).next;

const KS = [1, 2, 3, 4, 5, 8, 9, 15, 17, 30, 61, 130];

describe('morphology: running max and min', () => {
  it('equal the deque filter byte for byte: grey and 0/1 images, every direction and window, edges included', () => {
    const r = rng(27);
    for (let t = 0; t < 160; t++) {
      const w = 1 + Math.floor(r() * 50), h = 1 + Math.floor(r() * 50);
      const binary = t % 2 === 0;
      const density = 0.05 + 0.9 * r();
      const src = new Uint8Array(w * h).map(() => (binary ? (r() < density ? 1 : 0) : Math.floor(r() * 256)));
      for (const k of KS) for (const horizontal of [true, false]) for (const max of [true, false]) {
        const want = dequeFilter(src, w, h, k, horizontal, max);
        expect(Buffer.from(runFilter(src, w, h, k, horizontal, max)).equals(Buffer.from(want)), `runFilter ${w}×${h} k ${k} ${horizontal ? 'rows' : 'columns'} ${max ? 'max' : 'min'} (case ${t})`).toBe(true);
        if (binary && horizontal) {
          expect(Buffer.from(binaryRowFilter(src, w, h, k, max)).equals(Buffer.from(want)), `binaryRowFilter ${w}×${h} k ${k} ${max ? 'max' : 'min'} (case ${t})`).toBe(true);
        }
      }
    }
  });

  it('leave the input untouched and return a new array', () => {
    const src = Uint8Array.from([3, 9, 1, 7, 5, 2]);
    const copy = Uint8Array.from(src);
    const out = runFilter(src, 3, 2, 9, false, true);
    expect(out).not.toBe(src);
    expect([...src]).toEqual([...copy]);
    expect([...out]).toEqual([7, 9, 2, 7, 9, 2]);
    expect([...binaryRowFilter(Uint8Array.from([0, 1, 0, 0, 0, 0]), 6, 1, 3, true)]).toEqual([1, 1, 1, 0, 0, 0]);
  });
});
