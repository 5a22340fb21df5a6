import { describe, expect, it } from 'vitest';
import { primitivesRegistry, SAMPLE_KYC_DEFINITION, type TTemplateDefinition } from '../domain/primitives.js';
import { checkDefinition } from '../services/template-drafts.js';
import { compositionFromForm, compositionOf, draftPage, type RegistryPiece } from './build-views.js';
import { DASHBOARD_STRINGS } from './i18n.js';
import type { PageContext } from './views.js';

const registry = primitivesRegistry().primitives as RegistryPiece[];
const ctx = (role: 'owner' | 'compliance' = 'owner'): PageContext => ({ locale: 'en', t: DASHBOARD_STRINGS.en, path: '/x', csrf: 'tok', user: { email: 'a@example.com' }, org: { id: 'org_1', name: 'Org' }, role, project: { id: 'prj_1', name: 'P', sandbox: true } });

/** What a browser would submit for the composer form in `page` (no JavaScript): a tiny form serialiser. */
function submitted(page: string): Record<string, string> {
  const form = /<form method="post" action="[^"]*" class="composer"[\s\S]*?<\/form>/.exec(page)![0];
  const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const out: Record<string, string> = {};
  for (const [tag] of form.matchAll(/<input\b[^>]*>/g)) {
    const name = attr(tag, 'name');
    if (!name) continue;
    const type = attr(tag, 'type') ?? 'text';
    if ((type === 'checkbox' || type === 'radio') && !/\schecked[\s>]/.test(tag)) continue;
    out[unescape(name)] = unescape(attr(tag, 'value') ?? '');
  }
  for (const [, open, body] of form.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
    const selected = /<option value="([^"]*)" selected>/.exec(body!)?.[1] ?? /<option value="([^"]*)"/.exec(body!)?.[1] ?? '';
    out[unescape(attr(open!, 'name')!)] = unescape(selected);
  }
  return out;
}

/** Multiple choices come back in the schema's order (a set, not a list): compare them as sets. */
const sets = (v: unknown): unknown => (Array.isArray(v) ? (v.every((x) => typeof x === 'string') ? [...v].sort() : v.map(sets)) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sets(x)])) : v);

const render = (def: TTemplateDefinition, errors: { field: string; code: string; message: string }[] = [], role: 'owner' | 'compliance' = 'owner') =>
  draftPage(ctx(role), registry, { id: 'tpd_1', name: 'KYC', definition: def }, { name: 'KYC', value: compositionOf(registry, def), errors, blanks: {} }, []);

describe('forms generated from the primitives registry', () => {
  it('renders every piece from its JSON schema and submits back exactly the definition (rules mode included)', () => {
    const def = structuredClone(SAMPLE_KYC_DEFINITION);
    def.pieces[1] = { type: 'selfie_liveness', version: 1, settings: { step_count: 2, steps: ['turn_left', 'blink'] } };
    def.pieces[2] = { type: 'record_match', version: 1, settings: { mode: 'rules', rules: [{ collected: 'date_of_birth', claimed_key: 'date_of_birth', operator: 'equals' }, { collected: 'full_name', claimed_key: 'full_name', operator: 'contains' }] } };
    const page = render(def);
    for (const p of registry) expect(page).toContain(`name="${p.type}.__include"`);
    const back = compositionFromForm(registry, submitted(page));
    expect(back.name).toBe('KYC');
    const checked = checkDefinition(back.definition);
    expect(sets(checked)).toEqual(sets({ ok: true, definition: def }));
  });

  it('the sample definition (simple_match, default step count) round-trips too', () => {
    const back = compositionFromForm(registry, submitted(render(SAMPLE_KYC_DEFINITION)));
    expect(sets(checkDefinition(back.definition))).toEqual(sets({ ok: true, definition: SAMPLE_KYC_DEFINITION }));
  });

  it('ignores the blank spare rows, drops a row marked for removal, and reads an unticked optional piece as absent', () => {
    const body = submitted(render(SAMPLE_KYC_DEFINITION));
    body['document_capture.accepted_documents.1.__remove'] = '1';
    delete body['record_match.__include'];
    const def = checkDefinition(compositionFromForm(registry, body).definition);
    expect(def.ok && def.definition.pieces.map((p) => p.type)).toEqual(['document_capture', 'selfie_liveness', 'intake_shape']);
    expect(sets(def.ok && def.definition.pieces[0]!.settings)).toEqual({ accepted_documents: [{ country: 'MOZ', types: ['national_id', 'passport'] }] });
  });

  it('bad input comes back as errors that name the form field, and the page shows each beside its input', () => {
    const body = submitted(render(SAMPLE_KYC_DEFINITION));
    body['document_capture.accepted_documents.0.country'] = '*';
    body['selfie_liveness.step_count'] = 'three';
    body['record_match.mode'] = 'rules';
    body['intake_shape.fields.0.key'] = 'Full Name';
    const r = checkDefinition(compositionFromForm(registry, body).definition);
    expect(r.ok).toBe(false);
    const fields = r.ok ? [] : r.errors.map((e) => e.field).sort();
    expect(fields).toEqual(['intake_shape.fields.0.key', 'record_match.rules', 'selfie_liveness.step_count']);
    // The wildcard is refused by the explicit-country rule once the shape is valid.
    const fixed = { ...body, 'selfie_liveness.step_count': '3', 'record_match.mode': 'simple_match', 'intake_shape.fields.0.key': 'full_name' };
    const r2 = checkDefinition(compositionFromForm(registry, fixed).definition);
    expect(r2.ok ? [] : r2.errors.map((e) => [e.field, e.code])).toEqual([['document_capture.accepted_documents.0.country', 'wildcard_country_not_allowed']]);
    const page = render(SAMPLE_KYC_DEFINITION, r.ok ? [] : r.errors);
    expect(page).toMatch(/id="f-selfie_liveness-step_count"[^>]*aria-invalid="true"/);
    expect(page).toContain('id="f-intake_shape-fields-0-key-err"');
    expect(page).toContain('href="#f-record_match-rules"');
  });

  it('is read-only for a role without flows:manage: the fields are disabled and there is no save, activate or delete', () => {
    const page = render(SAMPLE_KYC_DEFINITION, [], 'compliance');
    expect(page).toContain('<fieldset class="composer-body" disabled>');
    expect(page).not.toMatch(/name="_op" value="save"|\/activate"|\/delete"/);
  });
});
