import { html, type Raw } from '../hosted/html.js';

/**
 * HTML forms generated from a JSON Schema (the primitives registry's `settings_schema`, which
 * zod produces from the same schemas the server validates with), and the reverse: form fields
 * back into a value for that schema. Works without JavaScript: arrays of objects get one blank
 * row to fill (blank rows are ignored), an "add rows" button that re-renders with more, and a
 * per-row "remove" box; the server validates and answers with errors beside each field.
 *
 * Field names are dotted paths under a prefix: `record_match.rules.0.claimed_key`. The same path
 * names a field in a validation error, so an error finds its input.
 */
export interface JsonSchema {
  type?: string; properties?: Record<string, JsonSchema>; required?: string[]; items?: JsonSchema;
  enum?: (string | number)[]; const?: string | number; oneOf?: JsonSchema[]; default?: unknown; description?: string;
  minimum?: number; maximum?: number; minLength?: number; maxLength?: number; pattern?: string; minItems?: number; maxItems?: number;
}

export interface FormText {
  label(key: string): string;
  hint(key: string, schemaDescription?: string): string | undefined;
  option(value: string): string;
  row(key: string, n: number): string;
  required: string; addRows: string; removeRow: string; choose: string; optional: string;
}

export interface FormState {
  /** Messages by field path. */
  errors: Map<string, string[]>;
  /** Blank rows to show per array path (default 1). */
  blanks: Record<string, number>;
  /** Ids of the fields rendered, for the error summary's links (filled while rendering). */
  rendered: Set<string>;
}

export const fieldId = (path: string): string => `f-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;
const lastKey = (path: string) => path.split('.').filter((s) => !/^\d+$/.test(s)).pop() ?? path;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The discriminating property of a `oneOf` of objects: the one that is a `const` in every variant. */
export function discriminator(s: JsonSchema): string | null {
  const first = s.oneOf?.[0]?.properties;
  if (!first) return null;
  return Object.keys(first).find((k) => s.oneOf!.every((v) => v.properties?.[k]?.const !== undefined)) ?? null;
}

function errorsAt(st: FormState, path: string, id: string): { attrs: Raw; block: Raw } {
  const list = st.errors.get(path) ?? [];
  if (!list.length) return { attrs: html``, block: html`` };
  return {
    attrs: html` aria-invalid="true" aria-describedby="${id}-err"`,
    block: html`<p class="field-error" id="${id}-err">${list.join(' ')}</p>`,
  };
}

function scalar(s: JsonSchema, path: string, value: unknown, required: boolean, t: FormText, st: FormState, inRow: boolean): Raw {
  const id = fieldId(path);
  st.rendered.add(id);
  const key = lastKey(path);
  const e = errorsAt(st, path, id);
  const hintText = t.hint(key, s.description);
  const hint = hintText ? html`<span class="hint" id="${id}-hint">${hintText}</span>` : '';
  const describedBy = hintText && !e.block.html ? html` aria-describedby="${id}-hint"` : e.block.html && hintText ? html` aria-describedby="${id}-err ${id}-hint"` : '';
  const attrs = e.block.html ? html` aria-invalid="true"` : '';
  const mark = required ? html` <span class="req">${t.required}</span>` : '';
  const v = value ?? (inRow ? undefined : s.default);
  if (s.type === 'boolean') {
    return html`<div class="sf-field sf-check"><input type="checkbox" id="${id}" name="${path}" value="1"${v === true ? html` checked` : ''}${attrs}${describedBy}> <label for="${id}">${t.label(key)}</label>${hint}${e.block}</div>`;
  }
  let control: Raw;
  if (s.enum) {
    // An empty choice keeps blank rows blank and lets a missing choice be reported, not guessed.
    const blank = !required || inRow || v === undefined;
    control = html`<select id="${id}" name="${path}"${attrs}${describedBy}>${blank ? html`<option value="">${t.choose}</option>` : ''}${s.enum.map((o) => html`<option value="${o}"${String(v ?? '') === String(o) ? html` selected` : ''}>${t.option(String(o))}</option>`)}</select>`;
  } else if (s.type === 'integer' || s.type === 'number') {
    control = html`<input type="number" id="${id}" name="${path}" inputmode="numeric"${s.minimum !== undefined ? html` min="${s.minimum}"` : ''}${s.maximum !== undefined ? html` max="${s.maximum}"` : ''}${s.type === 'integer' ? html` step="1"` : ''} value="${v === undefined ? '' : String(v)}"${attrs}${describedBy}>`;
  } else {
    control = html`<input type="text" id="${id}" name="${path}"${s.maxLength !== undefined ? html` maxlength="${s.maxLength}"` : ''}${s.pattern ? html` pattern="${s.pattern.replace(/^\^|\$$/g, '')}"` : ''} value="${v === undefined ? '' : String(v)}" autocomplete="off" spellcheck="false"${attrs}${describedBy}>`;
  }
  return html`<div class="sf-field"><label for="${id}">${t.label(key)}${mark}</label>${control}${hint}${e.block}</div>`;
}

function enumArray(s: JsonSchema, path: string, value: unknown, required: boolean, t: FormText, st: FormState): Raw {
  const id = fieldId(path);
  st.rendered.add(id);
  const key = lastKey(path);
  const chosen = new Set(Array.isArray(value) ? value.map(String) : []);
  const e = errorsAt(st, path, id);
  const hintText = t.hint(key, s.description);
  return html`<fieldset class="sf-group" id="${id}"${e.attrs}><legend>${t.label(key)}${required ? html` <span class="req">${t.required}</span>` : html` <span class="opt">${t.optional}</span>`}</legend>
${hintText ? html`<p class="hint">${hintText}</p>` : ''}<div class="sf-options">${s.items!.enum!.map((o) => html`<span class="sf-check"><input type="checkbox" id="${id}-${o}" name="${path}[${o}]" value="1"${chosen.has(String(o)) ? html` checked` : ''}> <label for="${id}-${o}">${t.option(String(o))}</label></span>`)}</div>${e.block}</fieldset>`;
}

function objectArray(s: JsonSchema, path: string, value: unknown, t: FormText, st: FormState): Raw {
  const id = fieldId(path);
  st.rendered.add(id);
  const key = lastKey(path);
  const rows = Array.isArray(value) ? value : [];
  const max = s.maxItems ?? 50;
  const blanks = Math.max(0, Math.min(st.blanks[path] ?? 1, max - rows.length));
  const e = errorsAt(st, path, id);
  const all = [...rows, ...Array.from({ length: blanks }, () => undefined)];
  return html`<fieldset class="sf-array" id="${id}"${e.attrs}><legend>${t.label(key)}</legend>
${t.hint(key, s.description) ? html`<p class="hint">${t.hint(key, s.description)}</p>` : ''}${e.block}
<input type="hidden" name="${path}.__blanks" value="${blanks}">
${all.map((row, i) => html`<fieldset class="sf-row" id="${fieldId(`${path}.${i}`)}"><legend>${t.row(key, i + 1)}</legend>
<div class="sf-row-fields">${objectFields(s.items!, `${path}.${i}`, row, t, st, true)}</div>
${row !== undefined ? html`<span class="sf-check sf-remove"><input type="checkbox" id="${fieldId(`${path}.${i}`)}-remove" name="${path}.${i}.__remove" value="1"> <label for="${fieldId(`${path}.${i}`)}-remove">${t.removeRow}</label></span>` : ''}
</fieldset>`)}
${all.length < max ? html`<button type="submit" class="secondary" name="_op" value="add:${path}" formnovalidate>${t.addRows}</button>` : ''}
</fieldset>`;
}

function objectFields(s: JsonSchema, path: string, value: unknown, t: FormText, st: FormState, inRow = false): Raw[] {
  const v = isObject(value) ? value : {};
  return Object.entries(s.properties ?? {}).map(([k, sub]) => field(sub, `${path}.${k}`, v[k], (s.required ?? []).includes(k), t, st, inRow));
}

function variants(s: JsonSchema, path: string, value: unknown, t: FormText, st: FormState): Raw {
  const disc = discriminator(s)!;
  const id = fieldId(`${path}.${disc}`);
  st.rendered.add(id);
  const v = isObject(value) ? value : {};
  // Nothing chosen yet: the first variant, as a radio group always has one choice.
  const current = v[disc] ?? s.oneOf![0]!.properties![disc]!.const;
  const e = errorsAt(st, `${path}.${disc}`, id);
  return html`<fieldset class="sf-group" id="${id}"${e.attrs}><legend>${t.label(disc)} <span class="req">${t.required}</span></legend>${t.hint(disc) ? html`<p class="hint">${t.hint(disc)}</p>` : ''}
<div class="sf-options">${s.oneOf!.map((o) => {
    const c = String(o.properties![disc]!.const);
    return html`<span class="sf-check"><input type="radio" id="${id}-${c}" name="${path}.${disc}" value="${c}"${String(current) === c ? html` checked` : ''}> <label for="${id}-${c}">${t.option(c)}</label></span>`;
  })}</div>${e.block}</fieldset>
${s.oneOf!.filter((o) => Object.keys(o.properties ?? {}).some((k) => k !== disc)).map((o) => {
    const c = String(o.properties![disc]!.const);
    const others: JsonSchema = { ...o, properties: Object.fromEntries(Object.entries(o.properties!).filter(([k]) => k !== disc)) };
    return html`<div class="sf-variant" data-variant-of="${path}.${disc}" data-variant="${c}"><p class="sf-variant-title">${t.hint(`when_${c}`) ?? t.option(c)}</p>${objectFields(others, path, String(current) === c ? v : {}, t, st)}</div>`;
  })}`;
}

function field(s: JsonSchema, path: string, value: unknown, required: boolean, t: FormText, st: FormState, inRow: boolean): Raw {
  if (s.type === 'array' && s.items?.enum) return enumArray(s, path, value, required, t, st);
  if (s.type === 'array' && (s.items?.type === 'object' || s.items?.properties)) return objectArray(s, path, value, t, st);
  if (s.oneOf && discriminator(s)) return variants(s, path, value, t, st);
  if (s.type === 'object' || s.properties) return html`<fieldset class="sf-object" id="${fieldId(path)}"><legend>${t.label(lastKey(path))}</legend>${objectFields(s, path, value, t, st, inRow)}</fieldset>`;
  return scalar(s, path, value, required, t, st, inRow);
}

/** The form fields for a value of `schema` (an object or a `oneOf` of objects) under `path`. */
export function schemaFields(schema: JsonSchema, path: string, value: unknown, t: FormText, st: FormState): Raw {
  if (schema.oneOf && discriminator(schema)) return variants(schema, path, value, t, st);
  return html`${objectFields(schema, path, value, t, st)}`;
}

// ---- decoding -------------------------------------------------------------------------------

function decodeScalar(s: JsonSchema, raw: string | undefined): unknown {
  if (s.type === 'boolean') return raw !== undefined && raw !== '';
  if (raw === undefined) return undefined;
  const v = raw.trim();
  if (v === '') return undefined;
  // A non-number stays a string, so validation reports it against the field instead of guessing.
  if ((s.type === 'integer' || s.type === 'number') && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  return v;
}

const under = (body: Record<string, string>, prefix: string) => Object.keys(body).some((k) => k.startsWith(prefix));

/** True when a row has nothing typed, chosen or ticked (the spare blank rows). */
function blankRow(body: Record<string, string>, prefix: string): boolean {
  return !Object.entries(body).some(([k, v]) => k.startsWith(prefix) && !k.endsWith('.__remove') && v.trim() !== '');
}

function decodeField(s: JsonSchema, path: string, body: Record<string, string>): unknown {
  if (s.type === 'array' && s.items?.enum) {
    const picked = s.items.enum.filter((o) => body[`${path}[${o}]`] !== undefined);
    return picked.length ? picked : undefined;
  }
  if (s.type === 'array' && (s.items?.type === 'object' || s.items?.properties)) {
    const out: unknown[] = [];
    const max = s.maxItems ?? 50;
    // Rows are read by index up to the schema's bound (plus the spare rows the page adds).
    for (let i = 0; i < max + 5; i++) {
      const prefix = `${path}.${i}.`;
      if (!under(body, prefix) || body[`${prefix}__remove`] !== undefined || blankRow(body, prefix)) continue;
      out.push(decodeObject(s.items!, `${path}.${i}`, body, true));
    }
    return out;
  }
  if (s.oneOf && discriminator(s)) return decodeVariants(s, path, body);
  if (s.type === 'object' || s.properties) return decodeObject(s, path, body);
  return decodeScalar(s, body[path]);
}

function decodeObject(s: JsonSchema, path: string, body: Record<string, string>, inRow = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, sub] of Object.entries(s.properties ?? {})) {
    const v = decodeField(sub, `${path}.${k}`, body);
    // An unticked optional box in a row is simply absent; a boolean with a default is sent as false.
    if (v === undefined || (v === false && inRow && sub.default === undefined && !(s.required ?? []).includes(k))) continue;
    out[k] = v;
  }
  return out;
}

function decodeVariants(s: JsonSchema, path: string, body: Record<string, string>): Record<string, unknown> {
  const disc = discriminator(s)!;
  const chosen = body[`${path}.${disc}`];
  const variant = s.oneOf!.find((o) => String(o.properties![disc]!.const) === chosen);
  if (!variant) return chosen ? { [disc]: chosen } : {};
  return { ...decodeObject({ ...variant, properties: Object.fromEntries(Object.entries(variant.properties!).filter(([k]) => k !== disc)) }, path, body), [disc]: variant.properties![disc]!.const };
}

/** The value the form under `path` describes, for `schema`; validation is the caller's (the zod schema). */
export function decodeSchemaForm(schema: JsonSchema, path: string, body: Record<string, string>): unknown {
  if (schema.oneOf && discriminator(schema)) return decodeVariants(schema, path, body);
  return decodeObject(schema, path, body);
}

/** Blank-row counts carried by the form, with one more for the array named by an "add rows" button. */
export function blanksFrom(body: Record<string, string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k.endsWith('.__blanks') && /^\d{1,2}$/.test(v)) out[k.slice(0, -'.__blanks'.length)] = Math.min(Number(v), 20);
  }
  const op = body._op ?? '';
  if (op.startsWith('add:')) out[op.slice(4)] = Math.min((out[op.slice(4)] ?? 1) + 1, 20);
  // After a save, the rows typed become values; one spare row again.
  return out;
}
