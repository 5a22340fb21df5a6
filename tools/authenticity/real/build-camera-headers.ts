import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { analyzeMetadata } from '../../../engine/authenticity/metadata/metadata-analysis.js';
import {
  CAMERA_HEADERS_DIR,
  lumaFamily,
  lumaKey,
  lumaMeanOf,
  normaliseDevice,
  type CameraHeaderEntry,
} from '../../../engine/authenticity/metadata/camera-headers.js';
import { lumaTableOf } from '../../../engine/authenticity/metadata/jpeg-structure.js';
import { AUTHENTICITY_SETTINGS_V6 } from '../../../engine/authenticity/settings.js';
import { sourcePath } from './fetch-real.js';
import { isHeldOut, loadSources } from './sources.js';

/**
 * `tsx tools/authenticity/real/build-camera-headers.ts` → engine/authenticity/model/camera-headers-v1.json
 *
 * The luminance tables that REAL cameras and scanners write, by EXIF Make / Model, read with the
 * engine's own metadata code from the genuine camera and scanner files of the TUNING split of
 * sources.json (held-out sources are never read). One entry per distinct (make, model, table) with
 * the source ids that carry it, so training can leave a row's own source out. Feature set v7's
 * header check (engine/authenticity/metadata/camera-headers.ts) reads it; its sha256 is pinned in
 * the settings that use it. Prints the sha256.
 */
export const CAMERA_HEADERS_FILE = 'camera-headers-v1.json';

async function main(): Promise<void> {
  const byKey = new Map<string, CameraHeaderEntry>();
  let read = 0;
  for (const s of loadSources().sort((a, b) => a.id.localeCompare(b.id))) {
    if ((s.kind !== 'camera' && s.kind !== 'scanner') || isHeldOut(s.sha256)) continue;
    const bytes = readFileSync(sourcePath(s));
    const meta = await analyzeMetadata(bytes, { width: 0, height: 0 }, AUTHENTICITY_SETTINGS_V6);
    const luma = lumaTableOf(meta.structure.quantTables);
    const make = normaliseDevice(meta.camera?.make);
    if (!luma || luma.values.length !== 64 || !make) continue;
    read++;
    const model = normaliseDevice(meta.camera?.model);
    const key = `${make}|${model}|${lumaKey(luma.values)}`;
    const e = byKey.get(key);
    if (e) {
      e.sources.push(s.id);
      continue;
    }
    byKey.set(key, {
      make,
      model,
      luma: lumaKey(luma.values),
      lumaMean: Math.round(lumaMeanOf(luma.values) * 1e4) / 1e4,
      family: lumaFamily(luma.values),
      sources: [s.id],
    });
  }
  const entries = [...byKey.values()].sort((a, b) => `${a.make}|${a.model}|${a.luma}`.localeCompare(`${b.make}|${b.model}|${b.luma}`));
  const text =
    JSON.stringify(
      { note: 'built by tools/authenticity/real/build-camera-headers.ts from the genuine camera and scanner files of the tuning split of sources.json', entries },
      null,
      1,
    ) + '\n';
  const out = path.join(CAMERA_HEADERS_DIR, CAMERA_HEADERS_FILE);
  writeFileSync(out, text);
  const makes = new Set(entries.map((e) => e.make)).size;
  console.log(JSON.stringify({ files: read, entries: entries.length, makes, sha256: createHash('sha256').update(text).digest('hex') }));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
