import sharp from 'sharp';
import type { DocumentTemplate, RelBox, Side, TextZone } from '../../engine/document/templates/types.js';
import { templateById } from '../../engine/document/templates/catalogue.js';
import { randomIdentity, vigenciaText, type DocumentIdentity } from './identity.js';
import { mrzLinesFor } from './mrz-data.js';
import { portraitPath, type PortraitRef } from './portraits.js';
import { createRng, subSeed } from './random.js';

export interface PixelBox { x: number; y: number; width: number; height: number }

export interface DocumentTruth {
  template: string;
  seed: number;
  identity: DocumentIdentity;
  mrz: { format: string; side: Side; lines: string[] };
  /** Text printed in the visual zone, per field, exactly as drawn. */
  visual: Record<string, string>;
  portrait?: { identity: string; file: string; side: Side; box: PixelBox };
  size: { width: number; height: number };
  px_per_mm: number;
  forgery?: { kind: string; detail: string; expected_reasons: string[] };
  degradations?: { kind: string; params: Record<string, number> }[];
  /** Document corners (TL, TR, BR, BL) in the final image, once photographed. */
  quad?: [number, number][];
  sides_in_image?: Side[];
}

export interface RenderInput {
  template: DocumentTemplate | string;
  identity?: DocumentIdentity;
  seed: number;
  portrait?: PortraitRef | null;
  pxPerMm?: number;
  /** Forgery hooks: print other MRZ lines or other visual values than the genuine ones. */
  overrides?: { mrzLines?: string[]; visual?: Record<string, string> };
}

export interface RenderedDocument {
  image: Buffer; // PNG of the front (TD3 data page, or card front)
  back?: Buffer; // PNG of the card back (TD1 documents carry the MRZ there)
  truth: DocumentTruth;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const dmy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const NATIONALITY_WORD: Record<string, string> = { MOZ: 'MOÇAMBICANA', MEX: 'MEXICANA' };

export function visualValues(template: DocumentTemplate, id: DocumentIdentity): Record<string, string> {
  const out: Record<string, string> = {};
  for (const z of template.zones) {
    const v: Record<string, string | undefined> = {
      surnames: id.surnames, given_names: id.given_names, date_of_birth: dmy(id.date_of_birth),
      sex: template.id === 'mex-ine' ? (id.sex === 'F' ? 'M' : 'H') : id.sex,
      document_number: id.document_number, expiry_date: dmy(id.expiry_date),
      nationality: NATIONALITY_WORD[id.nationality] ?? id.nationality, curp: id.curp, clave_elector: id.clave_elector,
      seccion: id.seccion, vigencia: template.id === 'mex-ine' ? vigenciaText(id) : undefined, issue_date: dmy(id.issue_date),
    };
    out[z.field] = v[z.field] ?? '';
  }
  return out;
}

function px(box: RelBox, w: number, h: number): PixelBox {
  return { x: Math.round(box.x * w), y: Math.round(box.y * h), width: Math.round(box.w * w), height: Math.round(box.h * h) };
}

/** Guilloche-like background lines: gives OCR and tamper detection a non-flat background. */
function guilloche(rng: ReturnType<typeof createRng>, w: number, h: number, colour: string): string {
  const paths: string[] = [];
  for (let k = 0; k < 7; k++) {
    const amp = h * (0.03 + rng.next() * 0.06);
    const freq = (2 + rng.next() * 5) * Math.PI * 2 / w;
    const phase = rng.next() * 6.28;
    const y0 = h * (0.15 + rng.next() * 0.7);
    let d = `M0 ${y0.toFixed(1)}`;
    for (let x = 0; x <= w; x += 8) d += ` L${x} ${(y0 + amp * Math.sin(x * freq + phase)).toFixed(1)}`;
    paths.push(`<path d="${d}" stroke="${colour}" stroke-opacity="0.18" stroke-width="1.5" fill="none"/>`);
  }
  return paths.join('');
}

function zoneSvg(z: TextZone, value: string, w: number, h: number, mm: number): string {
  const b = px(z.box, w, h);
  const labelSize = Math.min(b.height * 0.42, 2.2 * mm);
  const valueSize = Math.min(b.height * 0.7, 3.3 * mm);
  const label = z.label ? `<text x="${b.x}" y="${(b.y - labelSize * 0.35).toFixed(1)}" font-family="DejaVu Sans" font-size="${labelSize.toFixed(1)}" fill="#555">${esc(z.label)}</text>` : '';
  return `${label}<text x="${b.x}" y="${(b.y + b.height * 0.78).toFixed(1)}" font-family="DejaVu Sans" font-weight="bold" font-size="${valueSize.toFixed(1)}" fill="#111">${esc(value)}</text>`;
}

/** MRZ characters at the fixed ICAO pitch (2.54 mm, OCR-B size 1), each placed explicitly. */
function mrzSvg(lines: string[], w: number, h: number, mm: number): string {
  const pitch = 2.54 * mm;
  const x0 = (w - lines[0]!.length * pitch) / 2;
  const fontSize = 3.5 * mm;
  const lineGap = 4.3 * mm;
  const lastBaseline = h - (lines.length === 3 ? 3.4 : 4.6) * mm;
  return lines.map((line, i) => {
    const y = lastBaseline - (lines.length - 1 - i) * lineGap;
    const xs = Array.from(line, (_, k) => (x0 + k * pitch + pitch * 0.12).toFixed(1)).join(' ');
    return `<text x="${xs}" y="${y.toFixed(1)}" font-family="OCR B" font-size="${fontSize.toFixed(1)}" fill="#111">${esc(line)}</text>`;
  }).join('');
}

function sideSvg(t: DocumentTemplate, side: Side, w: number, h: number, mm: number, seed: number, values: Record<string, string>, mrz: string[]): string {
  const rng = createRng(subSeed(seed, `bg-${side}`));
  const parts: string[] = [
    `<rect width="${w}" height="${h}" rx="${3 * mm}" fill="${t.header.colour}"/>`,
    guilloche(rng, w, h, t.header.accent),
  ];
  if (side === 'front') {
    parts.push(`<rect x="0" y="0" width="${w}" height="${(0.15 * h).toFixed(0)}" rx="${3 * mm}" fill="${t.header.accent}" fill-opacity="0.12"/>`);
    parts.push(`<text x="${(0.04 * w).toFixed(0)}" y="${(0.075 * h).toFixed(0)}" font-family="DejaVu Sans" font-weight="bold" font-size="${(3 * mm).toFixed(1)}" fill="${t.header.accent}">${esc(t.header.title)}</text>`);
    parts.push(`<text x="${(0.04 * w).toFixed(0)}" y="${(0.13 * h).toFixed(0)}" font-family="DejaVu Sans" font-size="${(2.4 * mm).toFixed(1)}" fill="${t.header.accent}">${esc(t.header.subtitle)}</text>`);
    for (const z of t.zones.filter((zz) => zz.side === side)) parts.push(zoneSvg(z, values[z.field] ?? '', w, h, mm));
  } else {
    parts.push(`<text x="${(0.04 * w).toFixed(0)}" y="${(0.1 * h).toFixed(0)}" font-family="DejaVu Sans" font-size="${(2.2 * mm).toFixed(1)}" fill="${t.header.accent}">${esc(t.header.title)}</text>`);
    // A code block stands in for the PDF417/QR of the real backs.
    const cell = 1.2 * mm;
    for (let r = 0; r < 14; r++) for (let c = 0; c < 14; c++) {
      if (rng.chance(0.5)) parts.push(`<rect x="${(0.62 * w + c * cell).toFixed(1)}" y="${(0.15 * h + r * cell).toFixed(1)}" width="${cell.toFixed(1)}" height="${cell.toFixed(1)}" fill="#222"/>`);
    }
  }
  if (t.mrz.side === side) parts.push(mrzSvg(mrz, w, h, mm));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${parts.join('')}</svg>`;
}

/**
 * Renders one synthetic document from a template and an identity (random from `seed` if absent).
 * Pure function of its input: the same input gives the same pixels.
 */
export async function renderDocument(input: RenderInput): Promise<RenderedDocument> {
  const template = typeof input.template === 'string' ? templateById(input.template) : input.template;
  if (!template) throw new Error(`unknown template ${String(input.template)}`);
  const identity = input.identity ?? randomIdentity(template, input.seed);
  const mm = input.pxPerMm ?? 12;
  const w = Math.round(template.sizeMm.width * mm);
  const h = Math.round(template.sizeMm.height * mm);
  const visual = { ...visualValues(template, identity), ...input.overrides?.visual };
  const mrz = input.overrides?.mrzLines ?? mrzLinesFor(template, identity);

  const truth: DocumentTruth = {
    template: template.id, seed: input.seed, identity, visual,
    mrz: { format: template.mrz.format, side: template.mrz.side, lines: mrz },
    size: { width: w, height: h }, px_per_mm: mm,
  };
  const sides: Partial<Record<Side, Buffer>> = {};
  for (const side of template.sides) {
    let img = sharp(Buffer.from(sideSvg(template, side, w, h, mm, input.seed, visual, mrz))).flatten({ background: '#ffffff' });
    if (template.portrait?.side === side && input.portrait) {
      const box = px(template.portrait.box, w, h);
      const face = await sharp(portraitPath(input.portrait)).rotate().resize(box.width, box.height, { fit: 'cover', position: 'north' }).toBuffer();
      img = sharp(await img.png().toBuffer()).composite([{ input: face, left: box.x, top: box.y }]);
      truth.portrait = { identity: input.portrait.identity, file: input.portrait.file, side, box };
    }
    sides[side] = await img.png().toBuffer();
  }
  return { image: sides.front!, back: sides.back, truth };
}
