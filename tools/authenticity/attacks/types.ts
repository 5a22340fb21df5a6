import type { SampleLabel } from '../../../engine/authenticity/labels.js';
import type { Zone } from '../../../engine/authenticity/zones.js';

/** A decoded image with its zone boxes in the same pixel frame: what every generator consumes. */
export interface DocumentImage {
  width: number;
  height: number;
  /** Interleaved RGB, 8 bit. */
  rgb: Uint8Array;
  zones: Zone[];
}

/** A generated file as the engine would receive it, with its ground truth. */
export interface GeneratedSample {
  bytes: Buffer;
  zones: Zone[];
  label: SampleLabel;
  capturedAt: Date;
  /** What an editor re-save did (editor_resave only): lets the bench say which re-saves it misses. */
  edits?: ResaveEdits;
}

export interface ResaveEdits {
  /** Pixels cut off [left, top, right, bottom] before the second save, or null. */
  crop: [number, number, number, number] | null;
  tone: boolean;
  firstQuality: number;
  secondQuality: number;
}

// The label vocabulary is the runtime classifier's (engine/authenticity/labels.ts); the generators use it.
export { ATTACK_LABELS, SAMPLE_LABELS, type SampleLabel } from '../../../engine/authenticity/labels.js';
