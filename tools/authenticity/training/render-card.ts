import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { facesDir } from '../../../engine/assets.js';
import type { DocumentImage } from '../attacks/types.js';
import { toRaw } from '../attacks/raw.js';
import type { Rng } from './rng.js';

/**
 * A minimal synthetic ID-1 card, used because the shared corpus renderer (tools/corpus) was not
 * available when this engine was trained: guilloche-like background, header, labelled fields,
 * a real face photo as portrait and an MRZ-like band in OCR-B. Names are random syllables.
 * Zone boxes (portrait, number, name, mrz) come back in the card's pixel frame.
 */
export const CARD_WIDTH = 1012;
export const CARD_HEIGHT = 638;

const SYLLABLES = ['MA', 'RI', 'AN', 'TO', 'LU', 'SA', 'NE', 'GO', 'PE', 'DRA', 'VEL', 'CO', 'SIL', 'BER', 'FON', 'TES', 'RA', 'MI', 'JO', 'ZU'];
const EXCLUDED_FACES = /two_people|selfie|messi5/;

export function listFaces(): string[] {
  const root = facesDir();
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(jpe?g|png)$/i.test(e.name) && !EXCLUDED_FACES.test(e.name)) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

/** Faces are split by file so that the bench's held-out documents never reuse a training portrait. */
export function facesForSplit(split: 'train' | 'test'): string[] {
  return listFaces().filter((_, i) => (i % 4 === 3) === (split === 'test'));
}

function word(rng: Rng, min = 2, max = 3): string {
  let s = '';
  const n = rng.int(min, max);
  for (let i = 0; i < n; i++) s += rng.pick(SYLLABLES);
  return s;
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function guilloche(rng: Rng): string {
  const paths: string[] = [];
  const hue = rng.int(0, 359);
  const lines = rng.int(10, 18);
  for (let k = 0; k < lines; k++) {
    const amp = rng.range(8, 40);
    const period = rng.range(60, 220);
    const phase = rng.range(0, Math.PI * 2);
    const y0 = (k + 0.5) * (CARD_HEIGHT / lines);
    let d = `M 0 ${y0.toFixed(1)}`;
    for (let x = 0; x <= CARD_WIDTH; x += 8) d += ` L ${x} ${(y0 + amp * Math.sin((x / period) * 2 * Math.PI + phase)).toFixed(1)}`;
    paths.push(`<path d="${d}" stroke="hsl(${(hue + k * 7) % 360},45%,62%)" stroke-width="${rng.range(0.6, 1.6).toFixed(2)}" fill="none" opacity="0.55"/>`);
  }
  return paths.join('');
}

export interface RenderedCard extends DocumentImage {
  facePath: string;
}

export async function renderCard(rng: Rng, faces: string[]): Promise<RenderedCard> {
  const facePath = rng.pick(faces);
  const hue = rng.int(0, 359);
  const surname = word(rng);
  const given = `${word(rng)} ${word(rng, 2, 2)}`;
  const number = `${String.fromCharCode(65 + rng.int(0, 25))}${String.fromCharCode(65 + rng.int(0, 25))}${rng.int(1000000, 9999999)}`;
  const dob = `${String(rng.int(1, 28)).padStart(2, '0')}.${String(rng.int(1, 12)).padStart(2, '0')}.${rng.int(1950, 2005)}`;
  const portrait = { name: 'portrait', x: 48, y: 120, width: 250, height: 320 };
  const numberZone = { name: 'number', x: 340, y: 392, width: 300, height: 40 };
  const nameZone = { name: 'name', x: 340, y: 150, width: 520, height: 40 };
  const mrz = { name: 'mrz', x: 24, y: 478, width: CARD_WIDTH - 48, height: 140 };
  const field = (label: string, value: string, y: number, size = 30) =>
    `<text x="340" y="${y - 34}" font-family="DejaVu Sans" font-size="15" fill="#333">${esc(label)}</text>` +
    `<text x="340" y="${y}" font-family="DejaVu Sans" font-weight="bold" font-size="${size}" fill="#111">${esc(value)}</text>`;
  const mrzLines = [
    `I<UTO${number}<<<<<<<<<<<<<<<<`.slice(0, 30).padEnd(30, '<'),
    `${dob.slice(8, 10)}${dob.slice(3, 5)}${dob.slice(0, 2)}${rng.int(0, 9)}M${rng.int(2028, 2035) % 100}0101${rng.int(0, 9)}UTO<<<<<<<<<<<${rng.int(0, 9)}`.slice(0, 30).padEnd(30, '<'),
    `${surname}<<${given.replace(' ', '<')}`.slice(0, 30).padEnd(30, '<'),
  ];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="hsl(${hue},40%,92%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},35%,84%)"/></linearGradient></defs>
  <rect width="100%" height="100%" rx="28" fill="url(#g)"/>
  ${guilloche(rng)}
  <text x="48" y="62" font-family="DejaVu Sans" font-weight="bold" font-size="34" fill="hsl(${hue},60%,25%)">REPUBLIC OF UTOPIA</text>
  <text x="48" y="98" font-family="DejaVu Sans" font-size="22" fill="hsl(${hue},50%,30%)">IDENTITY CARD · CARTE D'IDENTITÉ</text>
  ${field('Surname', surname, 190)}
  ${field('Given names', given, 262)}
  ${field('Date of birth', dob, 334, 26)}
  ${field('Document No.', number, 426, 30)}
  <text x="700" y="334" font-family="DejaVu Sans" font-size="15" fill="#333">Sex</text>
  <text x="700" y="364" font-family="DejaVu Sans" font-weight="bold" font-size="26" fill="#111">${rng.pick(['M', 'F'])}</text>
  <rect x="${mrz.x}" y="${mrz.y}" width="${mrz.width}" height="${mrz.height}" fill="#fbfbf6" opacity="0.85"/>
  ${mrzLines.map((l, i) => `<text x="44" y="${mrz.y + 38 + i * 42}" font-family="OCR B" font-size="34" letter-spacing="3.5" fill="#111">${esc(l)}</text>`).join('')}
</svg>`;
  const face = await sharp(facePath)
    .rotate()
    .resize(portrait.width, portrait.height, { fit: 'cover', position: 'attention' })
    .modulate({ saturation: rng.range(0.2, 1) })
    .removeAlpha()
    .toBuffer();
  const card = await toRaw(
    sharp(Buffer.from(svg))
      .flatten({ background: '#ffffff' })
      .composite([{ input: face, left: portrait.x, top: portrait.y }]),
  );
  return { ...card, zones: [portrait, numberZone, nameZone, mrz], facePath };
}
