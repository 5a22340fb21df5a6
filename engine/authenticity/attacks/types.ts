import type { Zone } from '../zones.js';

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

export const SAMPLE_LABELS = ['clean', 'splice_portrait', 'edit_text', 'editor_resave', 'screen_recapture', 'print_recapture'] as const;
export type SampleLabel = (typeof SAMPLE_LABELS)[number];
export const ATTACK_LABELS = SAMPLE_LABELS.filter((l) => l !== 'clean');
