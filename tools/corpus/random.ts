/** Seeded PRNG (mulberry32): the corpus must be byte-for-byte reproducible from its seed. */
export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/**
 * The mulberry32 step, shared by every seeded generator in the project. Callers decide how a seed
 * becomes the initial state (that choice is part of each generator's reproducibility contract).
 */
export function mulberry32(initial: number): { next(): number; state(): number } {
  let a = initial >>> 0;
  return {
    next: () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
    state: () => a,
  };
}

export function createRng(seed: number): Rng {
  // Seed 0 would start mulberry32 at state 0; the corpus maps it to a fixed non-zero state.
  const { next } = mulberry32(seed >>> 0 || 0x9e3779b9);
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

/** Derives an independent seed for a sub-task so that adding one draw does not shift the others. */
export function subSeed(seed: number, label: string): number {
  let h = seed >>> 0;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
