import exifr from 'exifr';
import sharp from 'sharp';
import type { AuthenticitySettings } from '../settings.js';
import { signal, type EvidenceValue, type Signal } from '../signals.js';
import { exactUtcMs, parseExifDate } from './exif-dates.js';
import { parseJpegStructure, type JpegStructure } from './jpeg-structure.js';
import { fingerprintQuantization, type QuantizationFingerprint } from './quantization.js';
import { identifyTableFamily } from './table-families.js';
import { matchSoftware, type SoftwareMatch } from './software-families.js';

/**
 * Metadata fingerprints of the ORIGINAL upload: software tags, camera data, timestamps, the
 * embedded thumbnail, the quantisation tables. Must run on the uploaded bytes, before any
 * re-encoding strips or rewrites them.
 */
export interface MetadataContext {
  sessionStartedAt?: Date;
  submittedAt?: Date;
  /** Decoded pixel size of the main image (as stored, before orientation). */
  width: number;
  height: number;
}

export interface MetadataResult {
  signals: Signal[];
  evidence: Record<string, EvidenceValue>;
  structure: JpegStructure;
  quantization: QuantizationFingerprint | null;
  /** EXIF Make / Model as written (null when neither is present); read by feature set v7's header check only. */
  camera: { make: string; model: string } | null;
  /** Numeric summary for the classifier (same order always; see features.ts). */
  numeric: {
    hasExif: number;
    hasCameraMake: number;
    hasCaptureFields: number;
    softwareEditor: number;
    softwareOrganizer: number;
    lumaQuality: number;
    standardIjg: number;
    progressive: number;
  };
}

type Tags = Record<string, unknown>;

const CAMERA_CAPTURE_TAGS = ['ExposureTime', 'FNumber', 'ISO', 'ISOSpeedRatings', 'FocalLength'];

async function readTags(bytes: Buffer): Promise<Tags | null> {
  try {
    const tags = (await exifr.parse(bytes, {
      tiff: true,
      exif: true,
      gps: true,
      ifd1: true,
      xmp: true,
      iptc: false,
      icc: false,
      interop: false,
      mergeOutput: true,
      reviveValues: false,
      translateValues: false,
    })) as Tags | undefined;
    return tags ?? null;
  } catch {
    // Corrupt EXIF is itself worth recording but must not stop the pixel checks.
    return null;
  }
}

function gpsDecimal(value: unknown, ref: unknown): number | null {
  if (typeof value === 'number') return value;
  if (!Array.isArray(value) || value.length < 3) return null;
  const [d, m, s] = value.map(Number);
  if (![d, m, s].every((v) => Number.isFinite(v))) return null;
  const sign = ref === 'S' || ref === 'W' ? -1 : 1;
  return sign * (d! + m! / 60 + s! / 3600);
}

function softwareStrings(tags: Tags | null, structure: JpegStructure, realCaptureRules: boolean): string[] {
  const out: string[] = [];
  if (tags) {
    for (const key of ['Software', 'ProcessingSoftware', 'CreatorTool', 'HistorySoftwareAgent', 'softwareAgent']) {
      const v = tags[key];
      if (typeof v === 'string') out.push(v);
      else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') out.push(x);
    }
  }
  out.push(...structure.comments);
  // An APP13 "Photoshop 3.0" segment is only the IPTC container: cameras, scanners and many
  // non-editors write it (16 of 209 real camera files, settings v5 stop reading it as Photoshop).
  if (!realCaptureRules && structure.appSegments.some((s) => s.startsWith('APP13:Photoshop'))) out.push('Photoshop');
  return out;
}

/** Largest EXIF thumbnail decoded for the content comparison (4 MP). */
const THUMBNAIL_MAX_PIXELS = 4_000_000;

async function compareThumbnail(
  bytes: Buffer,
  width: number,
  height: number,
): Promise<{ present: boolean; aspectDelta?: number; correlation?: number }> {
  let thumb: Uint8Array | undefined;
  try {
    thumb = await exifr.thumbnail(bytes);
  } catch {
    thumb = undefined;
  }
  if (!thumb || thumb.length < 100) return { present: false };
  try {
    const meta = await sharp(thumb).metadata();
    if (!meta.width || !meta.height) return { present: false };
    const aspectDelta = Math.abs(Math.log((meta.width / meta.height) / (width / height)));
    // Compare content on a tiny grey grid: thumbnails are stored in the main image's orientation.
    const side = 24;
    // A thumbnail claiming a huge size (a decompression bomb: EXIF thumbnails are a few hundred
    // pixels across, and a PNG/WebP EXIF chunk has no 64 KB cap) is not decoded; the main image
    // passed the upload's pixel limit already. Real thumbnails stay far below this, so no
    // profile's result changes.
    const grid = async (input: Buffer | Uint8Array, limitInputPixels?: number) =>
      new Uint8Array(
        await sharp(input, { failOn: 'none', ...(limitInputPixels ? { limitInputPixels } : {}) })
          .resize(side, side, { fit: 'fill' })
          .greyscale()
          .raw()
          .toBuffer(),
      );
    const [a, b] = await Promise.all([grid(thumb, THUMBNAIL_MAX_PIXELS), grid(bytes)]);
    return { present: true, aspectDelta, correlation: pearson(a, b) };
  } catch {
    return { present: true };
  }
}

function pearson(a: Uint8Array, b: Uint8Array): number {
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < a.length; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= a.length;
  mb /= b.length;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]! - ma;
    const y = b[i]! - mb;
    sab += x * y;
    saa += x * x;
    sbb += y * y;
  }
  return saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : 1;
}

export async function analyzeMetadata(
  bytes: Buffer,
  ctx: MetadataContext,
  settings: AuthenticitySettings,
): Promise<MetadataResult> {
  const structure = parseJpegStructure(bytes);
  const quantization = fingerprintQuantization(structure.quantTables);
  const tags = await readTags(bytes);
  const signals: Signal[] = [];
  const evidence: Record<string, EvidenceValue> = {};

  const hasExif = !!tags && Object.keys(tags).length > 0;
  const make = typeof tags?.Make === 'string' && tags.Make.trim() !== '';
  const model = typeof tags?.Model === 'string' && tags.Model.trim() !== '';
  const captureFields = CAMERA_CAPTURE_TAGS.filter((k) => tags?.[k] !== undefined).length;
  evidence.exif_present = hasExif;
  evidence.camera_make_present = make;
  evidence.camera_model_present = model;
  evidence.capture_fields = captureFields;
  evidence.app_segments = structure.appSegments;
  evidence.progressive = structure.frameType === 0xc2;
  if (quantization) {
    evidence.jpeg_luma_quality = quantization.lumaQuality;
    evidence.jpeg_standard_tables = quantization.standardIjg;
  }
  if (structure.trailingBytes > 0) evidence.trailing_bytes = structure.trailingBytes;

  // Editing software.
  let software: SoftwareMatch | null = null;
  // Settings v5: rules re-measured on real genuine captures (README decision 13).
  const real = settings.realCaptureRules === true;
  for (const s of softwareStrings(tags, structure, real)) {
    const m = matchSoftware(s);
    if (m && (!software || (software.kind === 'organizer' && m.kind === 'pixel_editor'))) software = m;
  }
  if (software) {
    evidence.software_family = software.token;
    signals.push(
      signal('editing_software_detected', software.kind === 'pixel_editor' ? 'strong' : 'weak', 'metadata', {
        software_family: software.token,
        software_kind: software.kind,
      }),
    );
  }

  // Camera data: a file that has capture settings but no camera identity was rewritten by something.
  if (hasExif && captureFields >= 2 && !make && !model) {
    signals.push(signal('metadata_inconsistent', 'weak', 'metadata', { finding: 'camera_identity_missing' }));
  }
  if (!hasExif && settings.expectCameraMetadata) {
    signals.push(signal('metadata_inconsistent', 'weak', 'metadata', { finding: 'camera_metadata_missing' }));
  }

  // Dimensions recorded by the camera against the pixels actually stored (crop or resize after capture).
  const exifW = Number(tags?.ExifImageWidth ?? tags?.PixelXDimension ?? NaN);
  const exifH = Number(tags?.ExifImageHeight ?? tags?.PixelYDimension ?? NaN);
  if (Number.isFinite(exifW) && Number.isFinite(exifH) && exifW > 0 && exifH > 0) {
    const same = (exifW === ctx.width && exifH === ctx.height) || (exifW === ctx.height && exifH === ctx.width);
    evidence.exif_dimensions_match = same;
    // v5: evidence only — phones' share sheets and in-camera resizes do this to honest files.
    if (!same && !real) {
      signals.push(
        signal('metadata_inconsistent', 'weak', 'metadata', {
          finding: 'dimensions_mismatch',
          exif_width: exifW,
          exif_height: exifH,
          width: ctx.width,
          height: ctx.height,
        }),
      );
    }
  }

  // Timestamps: modified long after capture means a later save by some tool.
  const original = parseExifDate(tags?.DateTimeOriginal, tags?.OffsetTimeOriginal);
  const modified = parseExifDate(tags?.ModifyDate ?? tags?.DateTime, tags?.OffsetTime);
  if (original && modified) {
    const gapS = (modified.wallClockAsUtcMs - original.wallClockAsUtcMs) / 1000;
    evidence.modify_after_capture_s = Math.round(gapS);
    // v5: evidence only — real cameras and organisers rewrite ModifyDate (9 of 209 real camera files).
    if (gapS > 120 && !real) {
      signals.push(
        signal('metadata_inconsistent', 'weak', 'metadata', { finding: 'modified_after_capture', gap_s: Math.round(gapS) }),
      );
    }
  }
  if (original && (ctx.sessionStartedAt || ctx.submittedAt)) {
    const exact = exactUtcMs(original);
    const tolMs = exact === null ? settings.captureTimeToleranceMinutes * 60_000 : 5 * 60_000;
    const at = exact ?? original.wallClockAsUtcMs;
    const start = ctx.sessionStartedAt?.getTime();
    const end = ctx.submittedAt?.getTime();
    const beforeS = start !== undefined ? (start - tolMs - at) / 1000 : -1;
    const afterS = end !== undefined ? (at - end - tolMs) / 1000 : -1;
    evidence.capture_offset_known = exact !== null;
    if (beforeS > 0 || afterS > 0) {
      signals.push(
        signal('capture_time_inconsistent', 'weak', 'metadata', {
          finding: beforeS > 0 ? 'captured_before_session' : 'captured_after_submission',
          beyond_tolerance_s: Math.round(Math.max(beforeS, afterS)),
        }),
      );
    }
  }

  // GPS is evidence only (it is personal data and says nothing about forgery by itself).
  const lat = gpsDecimal(tags?.GPSLatitude ?? tags?.latitude, tags?.GPSLatitudeRef);
  const lon = gpsDecimal(tags?.GPSLongitude ?? tags?.longitude, tags?.GPSLongitudeRef);
  evidence.gps_present = lat !== null && lon !== null;
  if (lat !== null && lon !== null) {
    evidence.gps_latitude = Math.round(lat * 1e5) / 1e5;
    evidence.gps_longitude = Math.round(lon * 1e5) / 1e5;
  }

  // Embedded thumbnail against the main image: an edit that forgot the thumbnail shows here.
  if (structure.appSegments.some((s) => s.startsWith('APP1:Exif'))) {
    const t = await compareThumbnail(bytes, ctx.width, ctx.height);
    evidence.thumbnail_present = t.present;
    if (t.present && t.correlation !== undefined && t.aspectDelta !== undefined) {
      evidence.thumbnail_correlation = Math.round(t.correlation * 1000) / 1000;
      evidence.thumbnail_aspect_delta = Math.round(t.aspectDelta * 1000) / 1000;
      if (real) {
        // Real cameras letterbox a 3:2 frame into a 4:3 thumbnail and keep it unrotated, and
        // their thumbnails are processed differently (48 of 209 real camera files tripped the
        // v4 thresholds). Only a thumbnail of the same shape that shows another picture counts.
        if (t.aspectDelta < 0.04 && t.correlation < 0.2) {
          signals.push(signal('thumbnail_inconsistent', 'weak', 'metadata', { correlation: evidence.thumbnail_correlation, aspect_delta: evidence.thumbnail_aspect_delta }));
        }
      } else if (t.correlation < 0.5 || t.aspectDelta > 0.15) {
        signals.push(signal('thumbnail_inconsistent', 'strong', 'metadata', { correlation: evidence.thumbnail_correlation, aspect_delta: evidence.thumbnail_aspect_delta }));
      } else if (t.correlation < 0.85 || t.aspectDelta > 0.04) {
        signals.push(signal('thumbnail_inconsistent', 'weak', 'metadata', { correlation: evidence.thumbnail_correlation, aspect_delta: evidence.thumbnail_aspect_delta }));
      }
    }
  }

  // Quantisation: a camera-branded file re-saved by a library at a quality no camera uses.
  // v5: off — many real cameras write the IJG tables at quality 75 (16 of 209 real camera files).
  if (!real && quantization && (make || model) && quantization.standardIjg && quantization.lumaQuality < 85) {
    signals.push(
      signal('editor_quantization_detected', 'weak', 'metadata', {
        luma_quality: quantization.lumaQuality,
        standard_tables: true,
      }),
    );
  }

  // Quantisation-table family: tables of a family no camera writes mean software saved the file last.
  if (settings.cameraTableFamilies) {
    const match = identifyTableFamily(structure.quantTables);
    evidence.jpeg_table_family = match ? match.families.join('|') : 'unknown';
    const cameraFamilies: readonly string[] = settings.cameraTableFamilies;
    if (match && !match.families.some((f) => cameraFamilies.includes(f))) {
      signals.push(
        signal('editor_quantization_detected', 'strong', 'metadata', {
          table_family: match.families.join('|'),
          luma_quality: match.quality,
        }),
      );
    }
  }

  return {
    signals,
    evidence,
    structure,
    quantization,
    camera: make || model ? { make: make ? String(tags!.Make) : '', model: model ? String(tags!.Model) : '' } : null,
    numeric: {
      hasExif: hasExif ? 1 : 0,
      hasCameraMake: make || model ? 1 : 0,
      hasCaptureFields: captureFields >= 2 ? 1 : 0,
      softwareEditor: software?.kind === 'pixel_editor' ? 1 : 0,
      softwareOrganizer: software?.kind === 'organizer' ? 1 : 0,
      lumaQuality: quantization?.lumaQuality ?? 100,
      standardIjg: quantization?.standardIjg ? 1 : 0,
      progressive: structure.frameType === 0xc2 ? 1 : 0,
    },
  };
}
