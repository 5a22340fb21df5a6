/**
 * Seeded PRNG (mulberry32) for corpus generation. Every random choice of the corpus and the
 * attacks comes from one of these, so a seed fixes the whole training set.
 */
import { mulberry32 } from '../../corpus/random.js';

export interface Rng {
  next(): number;
  range(min: number, max: number): number;
  int(min: number, maxInclusive: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  gauss(): number;
  fork(label: string): Rng;
}

function hash(text: string, seed: number): number {
  let h = seed ^ 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x85ebca6b);
    h ^= h >>> 13;
  }
  return h >>> 0;
}

export function createRng(seed: number): Rng {
  // Unlike the corpus generator, seed 0 is used as is: the committed model's training set depends on it.
  const core = mulberry32(seed);
  const next = core.next;
  const rng: Rng = {
    next,
    range: (min, max) => min + (max - min) * next(),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
    gauss: () => {
      const u = Math.max(1e-12, next());
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    },
    fork: (label) => createRng(hash(label, core.state())),
  };
  return rng;
}
