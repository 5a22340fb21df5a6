import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EditorTableEntry } from '../real/build-editor-tables.js';
import type { Rng } from '../training/rng.js';
import { cameraExif } from './camera.js';
import { encodeJpegWithTables, exifSegment } from './jpeg-encode.js';
import { rawInput } from './raw.js';

/**
 * How an image editor writes the result back: a second JPEG save at the editor's quality and
 * tables, with the original camera EXIF kept (a careful forger), stripped, or carrying the
 * editor's Software tag. Half the attacks look metadata-clean on purpose.
 */
const EDITORS = ['Adobe Photoshop 25.1 (Windows)', 'GIMP 2.10.36', 'Snapseed 2.0', 'PicsArt Photo Studio'];

export async function editorSave(
  img: { width: number; height: number; rgb: Uint8Array },
  rng: Rng,
  capturedAt: Date,
  onQuality?: (quality: number) => void,
): Promise<Buffer> {
  const quality = rng.int(70, 98);
  onQuality?.(quality);
  const pipeline = rawInput(img).jpeg({
    quality,
    quantisationTable: rng.pick([0, 0, 1, 2, 3, 4, 5, 6, 7, 8]),
    chromaSubsampling: rng.chance(0.6) ? '4:2:0' : '4:4:4',
  });
  const metadata = rng.next();
  if (metadata < 0.4) {
    const exif = cameraExif(rng, capturedAt, rng.chance(0.3));
    return pipeline.withExif(exif as never).toBuffer();
  }
  if (metadata < 0.65) {
    const exif = cameraExif(rng, capturedAt, false);
    exif.IFD0.Software = rng.pick(EDITORS);
    return pipeline.withExif(exif as never).toBuffer();
  }
  return pipeline.toBuffer();
}

/** Software tags the real editors of `editor-tables.json` write (family token → tag). */
const EDITOR_TAGS: Record<string, string> = {
  adobe_photoshop: 'Adobe Photoshop 25.1 (Windows)',
  gimp: 'GIMP 2.10.36',
  paint_net: 'paint.net 5.0.13',
};

let editorHeaders: EditorTableEntry[] | null = null;
function realEditorHeaders(): EditorTableEntry[] {
  editorHeaders ??= (JSON.parse(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'editor-tables.json'), 'utf8')) as { entries: EditorTableEntry[] }).entries;
  return editorHeaders;
}

/**
 * Like `editorSave`, but with the header (luma and chroma tables, chroma sampling) of a file a
 * REAL editor wrote (`editor-tables.json`: Photoshop's own tables, GIMP's and paint.net's Annex K
 * at their quality), and that editor's Software tag when the tag is kept. The same metadata mix:
 * camera EXIF kept 40 %, editor tag 25 %, stripped 35 %.
 */
export async function editorSaveRealTables(img: { width: number; height: number; rgb: Uint8Array }, rng: Rng, capturedAt: Date): Promise<Buffer> {
  const header = rng.pick(realEditorHeaders());
  const metadata = rng.next();
  let exif: Buffer | null = null;
  if (metadata < 0.4) exif = await exifSegment(cameraExif(rng, capturedAt, rng.chance(0.3)) as unknown as Record<string, Record<string, string>>);
  else if (metadata < 0.65) {
    const tags = cameraExif(rng, capturedAt, false);
    tags.IFD0.Software = EDITOR_TAGS[header.editor] ?? 'Adobe Photoshop 25.1 (Windows)';
    exif = await exifSegment(tags as unknown as Record<string, Record<string, string>>);
  }
  return encodeJpegWithTables(img, header, exif);
}
