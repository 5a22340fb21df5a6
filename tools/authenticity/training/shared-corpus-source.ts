import { ALL_TEMPLATES, renderDocument, templateById } from '../../corpus/index.js';
import { decodeRgb } from '../attacks/raw.js';
import type { DocumentImage } from '../attacks/types.js';
import type { Zone } from '../../../engine/authenticity/zones.js';
import type { Rng } from './rng.js';

/**
 * Clean documents from the project's shared renderer (tools/corpus: the document engine's
 * templates, random identities), front side, with the zone boxes this engine uses: portrait
 * (from the ground truth), document number (template text zone) and MRZ band (when printed on
 * the front, i.e. passports).
 */
export async function sharedCorpusDocument(rng: Rng, faces: string[]): Promise<(DocumentImage & { facePath: string }) | null> {
  const withPortrait = ALL_TEMPLATES.filter((t) => t.portrait?.side === 'front');
  const template = rng.pick(withPortrait);
  const facePath = rng.pick(faces);
  const seed = rng.int(1, 2_000_000_000);
  const rendered = await renderDocument({ template: template.id, seed, portrait: { identity: 'synthetic', file: facePath } });
  const image = await decodeRgb(rendered.image);
  const t = templateById(template.id) ?? template;
  const px = (b: { x: number; y: number; w: number; h: number }) => ({
    x: Math.round(b.x * image.width),
    y: Math.round(b.y * image.height),
    width: Math.round(b.w * image.width),
    height: Math.round(b.h * image.height),
  });
  const zones: Zone[] = [];
  const portrait = rendered.truth.portrait;
  if (!portrait || portrait.side !== 'front') return null;
  zones.push({ name: 'portrait', ...portrait.box });
  const number = t.zones.find((z) => z.field === 'document_number' && z.side === 'front');
  if (number) zones.push({ name: 'number', ...px(number.box) });
  if (t.mrz.side === 'front') zones.push({ name: 'mrz', ...px(t.mrz.band) });
  const name = t.zones.find((z) => z.field === 'surnames' && z.side === 'front');
  if (name) zones.push({ name: 'name', ...px(name.box) });
  return { ...image, zones, facePath };
}
