import type { Rng } from '../training/rng.js';
import { encodeCameraJpeg, flatCapture, photograph, type CameraTables } from './camera.js';
import { editTextField } from './edit-text.js';
import { editorSave } from './editor-save.js';
import { renderPrinted } from './print-recapture.js';
import { decodeRgb } from './raw.js';
import { renderOnScreen } from './screen-recapture.js';
import { splicePortrait } from './splice-portrait.js';
import type { DocumentImage, GeneratedSample, ResaveEdits, SampleLabel } from './types.js';
import type { Zone } from '../../../engine/authenticity/zones.js';

export { ATTACK_LABELS, SAMPLE_LABELS, type DocumentImage, type GeneratedSample, type ResaveEdits, type SampleLabel } from './types.js';

/**
 * From one clean document image (+ zone boxes) to one file of the requested class, the way it
 * would reach the engine. Tampering happens on a camera capture and is saved by an editor;
 * recaptures pass through a screen or a printer and then a camera.
 */
export interface GenerateOptions {
  capturedAt: Date;
  /** Another person's photo, for portrait substitution. */
  donorFacePath?: string;
  /** How the genuine document was captured: a hand-held phone photo (default) or a flat, even capture. */
  capture?: CaptureStyle;
  /** Tables the simulated camera writes (`camera.ts`): `recipe` for corpora up to recipe v2, `real` since v3. */
  cameraTables?: CameraTables;
}

export type CaptureStyle = 'camera' | 'flat';

async function cameraCapture(
  doc: DocumentImage,
  rng: Rng,
  capturedAt: Date,
  style: CaptureStyle = 'camera',
  onQuality?: (quality: number) => void,
  tables: CameraTables = 'recipe',
): Promise<{ bytes: Buffer; zones: Zone[] }> {
  const shot = style === 'flat' ? await flatCapture(doc, rng.fork('flat')) : await photograph(doc, rng.fork('photo'), { capturedAt });
  return { bytes: await encodeCameraJpeg(shot, rng.fork('encode'), capturedAt, onQuality, tables), zones: shot.zones };
}

async function decodedCapture(...args: Parameters<typeof cameraCapture>): Promise<DocumentImage> {
  const cap = await cameraCapture(...args);
  return { ...(await decodeRgb(cap.bytes)), zones: cap.zones };
}

export async function generateSample(doc: DocumentImage, label: SampleLabel, rng: Rng, opts: GenerateOptions): Promise<GeneratedSample> {
  const { capturedAt } = opts;
  const tables = opts.cameraTables ?? 'recipe';
  switch (label) {
    case 'clean': {
      const cap = await cameraCapture(doc, rng, capturedAt, opts.capture, undefined, tables);
      return { ...cap, label, capturedAt };
    }
    case 'splice_portrait': {
      if (!opts.donorFacePath) throw new Error('splice_portrait needs donorFacePath');
      const cap = await decodedCapture(doc, rng, capturedAt, opts.capture, undefined, tables);
      const forged = await splicePortrait(cap, opts.donorFacePath, rng.fork('splice'));
      return { bytes: await editorSave(forged, rng.fork('save'), capturedAt), zones: forged.zones, label, capturedAt };
    }
    case 'edit_text': {
      const cap = await decodedCapture(doc, rng, capturedAt, opts.capture, undefined, tables);
      const forged = await editTextField(cap, rng.fork('edit'));
      return { bytes: await editorSave(forged, rng.fork('save'), capturedAt), zones: forged.zones, label, capturedAt };
    }
    case 'editor_resave': {
      const edits: ResaveEdits = { crop: null, tone: false, firstQuality: 0, secondQuality: 0 };
      let cap = await decodedCapture(doc, rng, capturedAt, opts.capture, (q) => (edits.firstQuality = q), tables);
      const r = rng.fork('adjust');
      if (r.chance(0.5)) {
        edits.crop = [r.int(1, 15), r.int(1, 15), r.int(1, 15), r.int(1, 15)];
        cap = cropDoc(cap, ...edits.crop);
      }
      if (r.chance(0.5)) {
        edits.tone = true;
        adjustTone(cap, r.range(0.9, 1.12), r.range(-12, 12));
      }
      const bytes = await editorSave(cap, rng.fork('save'), capturedAt, (q) => (edits.secondQuality = q));
      return { bytes, zones: cap.zones, label, capturedAt, edits };
    }
    case 'screen_recapture': {
      const screen = await renderOnScreen(doc, rng.fork('screen'));
      const r = rng.fork('photo');
      const shot = await photograph(screen, r, {
        capturedAt,
        fill: [0.8, 0.98],
        maxAngleDeg: 4,
        kernel: r.pick(['nearest', 'linear', 'cubic'] as const),
        surface: { r: r.int(10, 60), g: r.int(10, 60), b: r.int(10, 60) },
      });
      return { bytes: await encodeCameraJpeg(shot, rng.fork('encode'), capturedAt, undefined, tables), zones: shot.zones, label, capturedAt };
    }
    case 'print_recapture': {
      const printed = await renderPrinted(doc, rng.fork('print'));
      const r = rng.fork('photo');
      const shot = await photograph(printed, r, { capturedAt, kernel: r.pick(['linear', 'cubic', 'lanczos3'] as const) });
      return { bytes: await encodeCameraJpeg(shot, rng.fork('encode'), capturedAt, undefined, tables), zones: shot.zones, label, capturedAt };
    }
  }
}

function cropDoc(doc: DocumentImage, l: number, t: number, r: number, b: number): DocumentImage {
  const w = doc.width - l - r;
  const h = doc.height - t - b;
  const rgb = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) rgb.set(doc.rgb.subarray(((y + t) * doc.width + l) * 3, ((y + t) * doc.width + l + w) * 3), y * w * 3);
  return { width: w, height: h, rgb, zones: doc.zones.map((z) => ({ ...z, x: z.x - l, y: z.y - t })) };
}

function adjustTone(doc: DocumentImage, contrast: number, brightness: number): void {
  for (let i = 0; i < doc.rgb.length; i++) {
    const v = (doc.rgb[i]! - 128) * contrast + 128 + brightness;
    doc.rgb[i] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
  }
}
