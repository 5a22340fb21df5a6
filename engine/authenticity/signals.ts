/**
 * A signal is one finding of one detector: a PII-free reason code, a strength, and the numbers
 * that made the detector fire (evidence). Evidence is stored with the outcome in the database
 * only; the reason code is what may travel through Temporal and webhooks.
 */
export const SIGNAL_CODES = [
  'editing_software_detected',
  'metadata_inconsistent',
  'capture_time_inconsistent',
  'thumbnail_inconsistent',
  'editor_quantization_detected',
  'double_compression_detected',
  'tampering_suspected',
  'copy_move_detected',
  'editor_resave_suspected',
  'screen_recapture_suspected',
  'print_recapture_suspected',
  'not_camera_jpeg',
] as const;
export type SignalCode = (typeof SIGNAL_CODES)[number];

export type SignalStrength = 'weak' | 'strong';
export type SignalSource = 'metadata' | 'forensics' | 'model';
export type EvidenceValue = number | string | boolean | null | number[] | string[];

export interface Signal {
  code: SignalCode;
  strength: SignalStrength;
  source: SignalSource;
  /** What made it fire: numbers and PII-free tokens only (never free text from the file). */
  evidence: Record<string, EvidenceValue>;
}

export function signal(
  code: SignalCode,
  strength: SignalStrength,
  source: SignalSource,
  evidence: Record<string, EvidenceValue> = {},
): Signal {
  return { code, strength, source, evidence };
}
