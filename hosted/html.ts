/** Escapes text for HTML element and attribute context. Every interpolation in the hosted pages goes through it. */
export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Tagged template that escapes every interpolated value unless it is wrapped with `raw()`. */
export class Raw {
  constructor(readonly html: string) {}
}
export const raw = (html: string): Raw => new Raw(html);
export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += Array.isArray(v) ? v.map((x) => (x instanceof Raw ? x.html : esc(x))).join('') : v instanceof Raw ? v.html : esc(v);
    out += strings[i + 1];
  });
  return new Raw(out);
}

const SAFE_COLOUR = /^#[0-9a-fA-F]{6}$/;
export const colour = (c: unknown, fallback: string): string => (typeof c === 'string' && SAFE_COLOUR.test(c) ? c : fallback);
