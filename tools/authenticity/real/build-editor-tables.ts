import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import exifr from 'exifr';
import { parseJpegStructure } from '../../../engine/authenticity/metadata/jpeg-structure.js';
import { matchSoftware } from '../../../engine/authenticity/metadata/software-families.js';
import { identifyTableFamily } from '../../../engine/authenticity/metadata/table-families.js';
import { REAL_DIR } from './sources.js';
import { samplingOf } from './jpeg-sampling.js';

/**
 * `tsx tools/authenticity/real/build-editor-tables.ts` → tools/authenticity/attacks/editor-tables.json
 *
 * Quantisation tables that REAL image editors wrote: JPEGs in the same public collections as the
 * genuine corpus (GitHub snapshots under /work/.mirror) whose Software / CreatorTool / XMP history
 * names a pixel editor (Photoshop, GIMP, …). These files are NOT genuine sources (the genuine rule
 * drops them), so no held-out pixel is involved; only their headers are kept, with provenance
 * (repo, commit, path, sha256) and the editor family token. Attacks saved with these tables look
 * like what real editors write: Photoshop's own tables are not a catalogued IJG family, so the
 * table-family rule cannot see them and the pixels have to.
 */
export interface EditorTableEntry {
  repo: string;
  commit: string;
  path: string;
  sha256: string;
  editor: string;
  /** Catalogued family of the luma table, or null (the editor's own table). */
  family: string | null;
  sampling: [number, number];
  luma: number[];
  chroma: number[];
}

const REPOS = ['drewnoakes/metadata-extractor-images', 'ianare/exif-samples'];

async function main(): Promise<void> {
  const byKey = new Map<string, EditorTableEntry>();
  for (const repo of REPOS) {
    const gitDir = path.join('/work/.mirror', repo.replace('/', '+'), 'repo');
    const commit = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const listing = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', 'HEAD'], { encoding: 'utf8', maxBuffer: 1 << 26 });
    for (const entry of listing.split('\0')) {
      const file = entry.slice(entry.indexOf('\t') + 1);
      if (!/\.jpe?g$/i.test(file) || /corrupt|invalid/i.test(file)) continue;
      let bytes: Buffer;
      try {
        bytes = execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${file}`], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
      } catch {
        continue;
      }
      if (bytes.length < 1024 || bytes[0] !== 0xff || bytes[1] !== 0xd8) continue;
      const tags = (await exifr.parse(bytes, { tiff: true, xmp: true, ifd1: false, mergeOutput: true }).catch(() => null)) as Record<string, unknown> | null;
      const sw = [tags?.Software, tags?.ProcessingSoftware, tags?.CreatorTool].filter(Boolean).join(' ');
      const match = sw ? matchSoftware(sw) : null;
      if (!match || match.kind !== 'pixel_editor') continue;
      const st = parseJpegStructure(bytes);
      const luma = st.quantTables.find((t) => t.id === 0);
      const chroma = st.quantTables.find((t) => t.id === 1);
      const sampling = samplingOf(bytes);
      if (!luma || !chroma || !sampling || luma.precision !== 8 || chroma.precision !== 8) continue;
      const [h, v] = sampling;
      if (!((h === 1 && v === 1) || (h === 2 && v === 1) || (h === 2 && v === 2))) continue;
      const key = `${Array.from(luma.values).join(',')}|${Array.from(chroma.values).join(',')}|${h}x${v}`;
      if (byKey.has(key)) continue;
      const fam = identifyTableFamily([luma]);
      byKey.set(key, {
        repo,
        commit,
        path: file,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        editor: match.token,
        family: fam ? fam.families.join('+') : null,
        sampling: [h, v],
        luma: Array.from(luma.values),
        chroma: Array.from(chroma.values),
      });
    }
  }
  const entries = [...byKey.values()];
  writeFileSync(path.resolve(REAL_DIR, '../attacks/editor-tables.json'), JSON.stringify({ note: 'built by tools/authenticity/real/build-editor-tables.ts', entries }, null, 1) + '\n');
  const by: Record<string, number> = {};
  for (const e of entries) by[`${e.editor}/${e.family ?? 'own'}`] = (by[`${e.editor}/${e.family ?? 'own'}`] ?? 0) + 1;
  console.log(entries.length, JSON.stringify(by));
}

await main();
