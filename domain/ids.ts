/**
 * Identifiers are a type prefix and a ULID (Crockford base32, 48-bit millisecond time + 80 random
 * bits): readable in logs, sortable by creation time, opaque to integrators.
 * Workflow-safe: uses only `Math.random`-free crypto when given bytes; callers outside workflows
 * pass `crypto.getRandomValues`.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const ID_PREFIXES = {
  project: 'prj',
  apiKey: 'key',
  verification: 'ver',
  upload: 'upl',
  session: 'ses',
  delivery: 'whd',
  check: 'chk',
  template: 'tpl',
  flow: 'flw',
  flowVersion: 'flv',
  org: 'org',
  user: 'usr',
  identity: 'idn',
  membership: 'mem',
  invitation: 'inv',
  dashboardSession: 'dss',
  auditEvent: 'aud',
  disposition: 'dsp',
  templateDraft: 'tpd',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

export function ulid(nowMs: number, random: Uint8Array): string {
  let time = '';
  let t = nowMs;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let rand = '';
  for (let i = 0; i < 16; i++) rand += ALPHABET[random[i]! % 32];
  return time + rand;
}

let lastMs = -1;
let lastRandom: Uint8Array = new Uint8Array(16);

/**
 * Monotonic within a process: ids minted in the same millisecond increment the random part, so
 * "newest first" by (created_at, id) matches creation order.
 */
export function newId(kind: IdKind, nowMs = Date.now(), random?: Uint8Array): string {
  let r: Uint8Array;
  if (random) r = random;
  else if (nowMs <= lastMs) {
    nowMs = lastMs;
    r = lastRandom.slice();
    for (let i = 15; i >= 0; i--) {
      r[i] = (r[i]! + 1) % 32;
      if (r[i] !== 0) break;
    }
  } else {
    r = globalThis.crypto.getRandomValues(new Uint8Array(16)).map((b) => b % 32);
  }
  if (!random) {
    lastMs = nowMs;
    lastRandom = r;
  }
  return `${ID_PREFIXES[kind]}_${ulid(nowMs, r)}`;
}

export function isId(kind: IdKind, value: string): boolean {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9A-HJKMNP-TV-Z]{26}$`).test(value);
}
