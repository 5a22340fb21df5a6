import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import exifr from 'exifr';
import { matchSoftware } from '../../../engine/authenticity/metadata/software-families.js';
import { REAL_DIR, type RealSource, type RealKind } from './sources.js';

/**
 * Builds `sources.json`: the real genuine images (camera, scanner, document) this engine is
 * calibrated and benchmarked on. Run once where the GitHub snapshots are present (the `fetch`
 * tool puts them under /work/.mirror/<owner>+<name>/repo); the committed manifest pins source
 * repository, commit, path, sha256 and licence, and `fetch-real.ts` rebuilds the files from it.
 *
 * Selection rule (genuine = straight from a device): JPEG by content; EXIF Make present; no
 * known editor/organiser family in Software/ProcessingSoftware/XMP CreatorTool (those files
 * were re-saved by software and are not "genuine" negatives); not a test-suite oddity
 * (ImageTestSuite, invalid/, corrupted, tests/); decodable by the engine's limits (≥ 64 px).
 * Kind: `scanner` for scanner makes/models (film, flatbed, sheet-fed, photo-lab), else `camera`.
 * `../shared/documents-real` JPEGs are `document` (publisher renders, scans and photos of
 * specimen documents; referenced in place, not copied).
 */
const MIRRORS: { repo: string; licence: string; include: RegExp; exclude: RegExp }[] = [
  {
    repo: 'drewnoakes/metadata-extractor-images',
    licence: 'free to use for any purpose (repository README: "You are free to use these media files however you wish")',
    include: /\.jpe?g$/i,
    exclude: /ImageTestSuite|\/tests?\/|corrupt|invalid|Issue |issue |Depth Map|FLIR|Cardboard|Multiple ICC|User Comment/i,
  },
  {
    repo: 'ianare/exif-samples',
    licence: 'CC BY-SA 4.0 (repository README)',
    include: /^jpg\/.*\.jpe?g$/i,
    exclude: /\/tests\/|\/invalid\/|corrupt|PaintTool|photoshop|long_description|orientation\//i,
  },
  {
    // 300 dpi flatbed scans of receipts (Canon MB5100, IJ Scan Utility). Subfolder A was cropped
    // in Photoshop afterwards: the software rule below drops those from the genuine set.
    repo: 'softmatic/vision-data',
    licence: 'CC BY 4.0 (repository README)',
    include: /^2D\/Receipts\/.*\.jpe?g$/i,
    exclude: /^$/,
  },
  {
    // Recent phones as applicants use them (Pixel 5 HDR+, iPhone 11) and a compact camera
    // (Canon SX620 HS): the authors' own photos of cartridge headstamps, straight from the device
    // (the WhatsApp copy has no Make and drops out by the rule below). Added in issue 13 (wt19b).
    repo: 'Tech4Tracing/CartridgeOCR',
    licence: 'MIT (repository LICENSE, Copyright (c) 2021-2022 Tech 4 Tracing)',
    include: /^imagesForTesting\/.*\.jpe?g$/i,
    exclude: /receivedWhatsApp/i,
  },
];

const SCANNER = /scan|MB\d{4} series|CLAS|Noritsu|Frontier|Perfection|Scanjet|ScanSnap|CanoScan|fi-\d|Plustek|Epson GT|Kodak i\d|document camera/i;

function mirrorDir(repo: string): string {
  return path.join('/work/.mirror', repo.replace('/', '+'), 'repo');
}

async function main() {
  const out: RealSource[] = [];
  for (const m of MIRRORS) {
    const gitDir = mirrorDir(m.repo);
    const commit = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const listing = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', 'HEAD'], { encoding: 'utf8', maxBuffer: 1 << 26 });
    for (const entry of listing.split('\0')) {
      const tab = entry.indexOf('\t');
      if (tab < 0) continue;
      const file = entry.slice(tab + 1);
      if (!m.include.test(file) || m.exclude.test(file)) continue;
      let bytes: Buffer;
      try {
        bytes = execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${file}`], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
      } catch {
        continue; // blob not in the snapshot (large files may be absent)
      }
      if (bytes.length < 1024 || bytes[0] !== 0xff || bytes[1] !== 0xd8) continue;
      const tags = await exifr.parse(bytes, { tiff: true, xmp: true, ifd1: false, mergeOutput: true }).catch(() => null) as Record<string, unknown> | null;
      const make = String(tags?.Make ?? '').trim();
      const model = String(tags?.Model ?? '').trim();
      if (!make) continue;
      const sw = [tags?.Software, tags?.ProcessingSoftware, tags?.CreatorTool, tags?.HistorySoftwareAgent].filter(Boolean).join(' ');
      if (sw && matchSoftware(sw)) continue;
      const w = Number(tags?.ExifImageWidth ?? tags?.ImageWidth ?? 0);
      const h = Number(tags?.ExifImageHeight ?? tags?.ImageHeight ?? 0);
      if (w && h && Math.min(w, h) < 64) continue;
      const kind: RealKind = SCANNER.test(`${make} ${model} ${sw} ${file}`) ? 'scanner' : 'camera';
      out.push({ id: '', repo: m.repo, commit, path: file, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length, licence: m.licence, kind, device: `${make} ${model}`.trim().slice(0, 80) });
    }
  }
  const docsDir = path.resolve(REAL_DIR, '../../../../shared/documents-real');
  for (const f of readdirSync(docsDir).sort()) {
    const bytes = readFileSync(path.join(docsDir, f));
    if (bytes[0] !== 0xff || bytes[1] !== 0xd8) continue;
    // Same genuine rule as above: a file an editor saved (Software, CreatorTool, XMP history)
    // is not an honest capture, whatever it shows.
    const tags = (await exifr.parse(bytes, { tiff: true, xmp: true, mergeOutput: true }).catch(() => null)) as Record<string, unknown> | null;
    const history = JSON.stringify(tags?.History ?? '');
    const sw = [tags?.Software, tags?.ProcessingSoftware, tags?.CreatorTool, tags?.HistorySoftwareAgent, history].filter(Boolean).join(' ');
    if (sw && matchSoftware(sw)) continue;
    out.push({ id: '', repo: 'shared/documents-real', commit: '', path: f, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length, licence: 'see ../shared/documents-real/README.md (referenced in place, never copied)', kind: 'document', device: '' });
  }
  // De-duplicate identical files (the collections overlap: exif.org samples are in both).
  const seen = new Set<string>();
  const unique = out.filter((s) => (seen.has(s.sha256) ? false : (seen.add(s.sha256), true)));
  unique.forEach((s) => (s.id = `${s.kind}-${s.sha256.slice(0, 12)}`));
  writeFileSync(path.join(REAL_DIR, 'sources.json'), JSON.stringify(unique, null, 1) + '\n');
  const count: Record<string, number> = {};
  for (const s of unique) count[s.kind] = (count[s.kind] ?? 0) + 1;
  console.log(JSON.stringify(count));
}

await main();
