import type { MrzFormat } from '../mrz/parse.js';

export type DocumentType = 'passport' | 'national_id' | 'driving_licence' | 'residence_permit';
export type Confidence = 'HIGH' | 'MED' | 'LOW' | 'UNCONFIRMED';
export type Side = 'front' | 'back';

/** Fields the engine extracts; the visual zone may print a subset. */
export type FieldName =
  | 'surnames' | 'given_names' | 'date_of_birth' | 'sex' | 'document_number' | 'expiry_date'
  | 'nationality' | 'curp' | 'clave_elector' | 'seccion' | 'vigencia' | 'issue_date';

/** Box as fractions of the side's width and height: robust to the photo's resolution. */
export interface RelBox { x: number; y: number; w: number; h: number }

export interface TextZone {
  field: FieldName;
  label: string;
  side: Side;
  box: RelBox;
  /** How the value is printed: dates differ per country (DD/MM/YYYY vs DD MMM YYYY). */
  format?: 'date_dmy_slash' | 'date_dmy_space' | 'text' | 'vigencia_range' | 'year';
}

/** A format rule with the confidence of the fact behind it (DOCUMENT_FACTS): LOW or UNCONFIRMED never hard-fails. */
export interface PatternRule { pattern: RegExp; confidence: Confidence }

export interface DocumentTemplate {
  id: string;
  name: string;
  country: string; // alpha-3; `*` only for the generic ICAO passport tier
  type: DocumentType;
  tier: 'calibrated' | 'uncalibrated';
  sizeMm: { width: number; height: number };
  sides: Side[];
  mrz: {
    format: MrzFormat;
    side: Side;
    band: RelBox;
    documentCodes: RegExp;
    /** Sex letters a genuine document prints in the MRZ (INE uses Spanish H/M). */
    sexLetters: string[];
    lineRules: PatternRule[][]; // per line, all must match
    layoutConfidence: Confidence;
  };
  /** `shape`: letter (A) / digit (9) positions, used to undo OCR letter–digit confusions in the visual zone. */
  documentNumber: PatternRule & { shape?: string };
  /** Validity periods in years that issuers use; checked against issue date when printed. */
  expiryRule?: { kind: 'dec31'; confidence: Confidence };
  zones: TextZone[];
  portrait?: { side: Side; box: RelBox };
  header: { title: string; subtitle: string; colour: string; accent: string };
  languages: string[];
}
