import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import exifr from 'exifr';
import { parseJpegStructure, type QuantTable } from '../../../engine/authenticity/metadata/jpeg-structure.js';
import { identifyTableFamily } from '../../../engine/authenticity/metadata/table-families.js';
import { sourcePath } from './fetch-real.js';
import { isHeldOut, loadSources, REAL_DIR } from './sources.js';
import { samplingOf } from './jpeg-sampling.js';

/**
 * `tsx tools/authenticity/real/build-camera-tables.ts` → tools/authenticity/attacks/camera-tables.json
 *
 * The quantisation tables and chroma sampling that REAL cameras write, read from the genuine camera
 * files of the TUNING split of `sources.json` (held-out sources are never read, so the generator
 * cannot copy a held-out file's header). One entry per distinct (luma, chroma, sampling) header,
 * with the EXIF Make/Model that wrote it and whether the luma table is Annex K scaled (libjpeg's
 * own) or a vendor's table. The generator's simulated phone (`encodeCameraJpeg`, recipe `real`)
 * saves with these, so that its clean captures carry the headers real cameras carry.
 */
export interface CameraTableEntry {
  /** Source ids that carry exactly this header (tuning split). */
  sources: string[];
  make: string;
  model: string;
  /** 'annex_k' (libjpeg's table scaled to some quality) or 'vendor' (a table no catalogued family writes). */
  family: 'annex_k' | 'vendor';
  /** IJG quality for annex_k, null for vendor tables. */
  quality: number | null;
  /** Luma sampling factors (h, v); chroma is 1×1. [1,1] = 4:4:4, [2,1] = 4:2:2, [2,2] = 4:2:0. */
  sampling: [number, number];
  /** 64 values each, natural (row-major) order. */
  luma: number[];
  chroma: number[];
}

export const CAMERA_TABLES_FILE = path.resolve(REAL_DIR, '../attacks/camera-tables.json');

async function main(): Promise<void> {
  const byKey = new Map<string, CameraTableEntry>();
  let read = 0;
  for (const s of loadSources().sort((a, b) => a.id.localeCompare(b.id))) {
    if (s.kind !== 'camera' || isHeldOut(s.sha256)) continue;
    const bytes = readFileSync(sourcePath(s));
    const st = parseJpegStructure(bytes);
    const sampling = samplingOf(bytes);
    const luma = st.quantTables.find((t) => t.id === 0);
    const chroma = st.quantTables.find((t) => t.id === 1);
    if (!luma || !chroma || !sampling || luma.precision !== 8 || chroma.precision !== 8) continue;
    const [h, v] = sampling;
    if (!((h === 1 && v === 1) || (h === 2 && v === 1) || (h === 2 && v === 2))) continue;
    read++;
    const fam = identifyTableFamily([luma] as QuantTable[]);
    // A table that several families write (all ones, near quality 100) tells nothing: skip.
    if (fam && (fam.families.length > 1 || fam.families[0] !== 'annex_k')) continue;
    const exif = (await exifr.parse(bytes, { pick: ['Make', 'Model'] }).catch(() => null)) as { Make?: string; Model?: string } | null;
    const key = `${Array.from(luma.values).join(',')}|${Array.from(chroma.values).join(',')}|${h}x${v}`;
    const e = byKey.get(key);
    if (e) {
      e.sources.push(s.id);
      continue;
    }
    byKey.set(key, {
      sources: [s.id],
      make: String(exif?.Make ?? '').trim(),
      model: String(exif?.Model ?? '').trim(),
      family: fam ? 'annex_k' : 'vendor',
      quality: fam ? fam.quality : null,
      sampling: [h, v],
      luma: Array.from(luma.values),
      chroma: Array.from(chroma.values),
    });
  }
  const entries = [...byKey.values()];
  writeFileSync(CAMERA_TABLES_FILE, JSON.stringify({ note: 'built by tools/authenticity/real/build-camera-tables.ts from the tuning split of sources.json', entries }, null, 1) + '\n');
  const vendor = entries.filter((e) => e.family === 'vendor').length;
  console.log(`camera files read ${read}; headers ${entries.length} (vendor ${vendor}, annex_k ${entries.length - vendor})`);
}

await main();
