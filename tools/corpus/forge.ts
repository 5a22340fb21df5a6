import sharp from 'sharp';
import { templateById } from '../../engine/document/templates/catalogue.js';
import type { DocumentTemplate } from '../../engine/document/templates/types.js';
import { randomIdentity } from './identity.js';
import { mrzLinesFor } from './mrz-data.js';
import { renderDocument, type RenderedDocument, type RenderInput } from './render.js';
import { createRng } from './random.js';

export type ForgeryKind = 'broken_check_digit' | 'mrz_visual_mismatch' | 'expired' | 'wrong_issuing_state' | 'edited_number';
export const FORGERY_KINDS: ForgeryKind[] = ['broken_check_digit', 'mrz_visual_mismatch', 'expired', 'wrong_issuing_state', 'edited_number'];

/** The reason code the document engine must raise for each forgery. */
export const EXPECTED_REASON: Record<ForgeryKind, string> = {
  broken_check_digit: 'mrz_check_digit_mismatch',
  mrz_visual_mismatch: 'visual_mrz_mismatch',
  expired: 'document_expired',
  wrong_issuing_state: 'issuing_state_mismatch',
  edited_number: 'visual_mrz_mismatch',
};

const swapDigit = (c: string) => String((Number(c) + 5) % 10);

/**
 * Renders a forged variant. The corpus's `now` matters for `expired`: the document expires
 * before it. `edited_number` is a pixel edit of a clean render (what a forger with an image
 * editor does); the others are documents printed with inconsistent data.
 */
export async function forgeDocument(kind: ForgeryKind, input: RenderInput & { now?: Date }): Promise<RenderedDocument> {
  const template = (typeof input.template === 'string' ? templateById(input.template) : input.template) as DocumentTemplate;
  const identity = input.identity ?? randomIdentity(template, input.seed);
  const rng = createRng(input.seed ^ 0x5bd1e995);
  const lines = mrzLinesFor(template, identity);
  const detail: string[] = [];
  let doc: RenderedDocument;

  switch (kind) {
    case 'broken_check_digit': {
      // Break the date-of-birth check digit: a careless edit of the DOB without recomputing.
      const li = 1;
      const pos = template.mrz.format === 'TD3' ? 19 : 6;
      const line = lines[li]!;
      const broken = line.slice(0, pos) + swapDigit(line[pos]!) + line.slice(pos + 1);
      const mrzLines = lines.map((l, i) => (i === li ? broken : l));
      detail.push(`line ${li + 1} position ${pos + 1}`);
      doc = await renderDocument({ ...input, template, identity, overrides: { mrzLines } });
      break;
    }
    case 'mrz_visual_mismatch': {
      // The visual zone shows another birth date than the (valid) MRZ.
      const [y, m, d] = identity.date_of_birth.split('-');
      const other = `${d}/${m}/${Number(y) + rng.int(1, 9)}`;
      detail.push('date_of_birth');
      doc = await renderDocument({ ...input, template, identity, overrides: { visual: { date_of_birth: other } } });
      break;
    }
    case 'expired': {
      const now = input.now ?? new Date('2026-11-21T00:00:00Z');
      const year = now.getUTCFullYear() - rng.int(1, 3);
      const expiry = template.id === 'mex-ine' ? `${year}-12-31` : `${year}-${identity.expiry_date.slice(5)}`;
      const expired = { ...identity, expiry_date: expiry, issue_date: `${year - 5}-${identity.issue_date.slice(5)}`, vigencia_start: String(year - 10) };
      detail.push(`expiry ${expiry}`);
      doc = await renderDocument({ ...input, template, identity: expired });
      break;
    }
    case 'wrong_issuing_state': {
      // Another state in the MRZ; check digits stay valid because the state is outside them.
      const other = template.country === 'MOZ' ? 'ZAF' : template.country === 'MEX' ? 'GTM' : 'UTO';
      const mrzLines = lines.map((l, i) => (i === 0 ? l.slice(0, 2) + other + l.slice(5) : l));
      detail.push(`issuing state ${other}`);
      doc = await renderDocument({ ...input, template, identity, overrides: { mrzLines } });
      break;
    }
    case 'edited_number': {
      const clean = await renderDocument({ ...input, template, identity });
      const zone = template.zones.find((z) => z.field === 'document_number') ?? template.zones.find((z) => z.field === 'seccion')!;
      const field = zone.field;
      const original = clean.truth.visual[field]!;
      // Change two digits and repaint the value box in a close but not identical font weight.
      let edited = original;
      for (const k of [original.length - 2, original.length - 4].filter((i) => i >= 0)) {
        if (/\d/.test(edited[k] ?? '')) edited = edited.slice(0, k) + swapDigit(edited[k]!) + edited.slice(k + 1);
      }
      const { width: w, height: h } = clean.truth.size;
      const b = { x: zone.box.x * w, y: zone.box.y * h, w: zone.box.w * w * 0.8, h: zone.box.h * h };
      const size = Math.min(b.h * 0.7, 3.3 * clean.truth.px_per_mm);
      const patch = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect x="${b.x - 2}" y="${b.y}" width="${b.w}" height="${b.h}" fill="${template.header.colour}"/><text x="${b.x}" y="${b.y + b.h * 0.78}" font-family="DejaVu Sans" font-weight="bold" font-size="${size.toFixed(1)}" fill="#161616">${edited}</text></svg>`;
      const image = await sharp(clean.image).composite([{ input: Buffer.from(patch) }]).png().toBuffer();
      doc = { ...clean, image, truth: { ...clean.truth, visual: { ...clean.truth.visual, [field]: edited } } };
      detail.push(`${field} repainted`);
      break;
    }
  }
  doc.truth.forgery = { kind, detail: detail.join('; '), expected_reasons: [EXPECTED_REASON[kind]] };
  return doc;
}


