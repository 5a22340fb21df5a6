import type { Rng } from '../training/rng.js';
import { cameraExif } from './camera.js';
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
