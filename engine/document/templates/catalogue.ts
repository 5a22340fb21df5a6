import type { DocumentTemplate, TextZone } from './types.js';

/**
 * Templates as data. Layout zones are this project's synthetic stand-ins for the real designs
 * (DOCUMENT_FACTS lists captions, not coordinates): a real rollout recalibrates the boxes on real
 * specimens; the rules and their confidence levels come from DOCUMENT_FACTS.
 */

const ID1 = { width: 85.6, height: 53.98 };
const ID3 = { width: 125, height: 88 };

// One row per field: the caption in the top third, the value box below it.
function rows(side: 'front' | 'back', x: number, y0: number, step: number, w: number, items: Omit<TextZone, 'side' | 'box'>[]): TextZone[] {
  return items.map((it, i) => ({ ...it, side, box: { x, y: y0 + i * step + step * 0.34, w, h: step * 0.62 } }));
}

const TD3_BAND = { x: 0.03, y: 0.83, w: 0.94, h: 0.155 };
const TD1_BAND = { x: 0.03, y: 0.6, w: 0.94, h: 0.37 };
const ICAO_SEX = ['M', 'F', '<', 'X'];

export const MOZ_BI: DocumentTemplate = {
  id: 'moz-bi',
  name: 'Mozambique Bilhete de Identidade',
  country: 'MOZ', type: 'national_id', tier: 'calibrated', sizeMm: ID1, sides: ['front', 'back'],
  mrz: {
    format: 'TD1', side: 'back', band: TD1_BAND, documentCodes: /^I[A-Z<]$/, sexLetters: ICAO_SEX,
    // The real BI MRZ is UNCONFIRMED (DOCUMENT_FACTS §5, §7.7): we assume ICAO TD1 with the long-number rule.
    lineRules: [[{ pattern: /^I[A-Z<]MOZ/, confidence: 'UNCONFIRMED' }], [], []],
    layoutConfidence: 'UNCONFIRMED',
  },
  documentNumber: { pattern: /^\d{12}[A-Z]$/, confidence: 'LOW', shape: '999999999999A' },
  zones: rows('front', 0.36, 0.25, 0.12, 0.6, [
    { field: 'surnames', label: 'APELIDO', format: 'text' },
    { field: 'given_names', label: 'NOME', format: 'text' },
    { field: 'date_of_birth', label: 'DATA DE NASCIMENTO', format: 'date_dmy_slash' },
    { field: 'sex', label: 'SEXO', format: 'text' },
    { field: 'document_number', label: 'N.º BI', format: 'text' },
    { field: 'expiry_date', label: 'VÁLIDO ATÉ', format: 'date_dmy_slash' },
  ]),
  portrait: { side: 'front', box: { x: 0.04, y: 0.25, w: 0.28, h: 0.6 } },
  header: { title: 'REPÚBLICA DE MOÇAMBIQUE', subtitle: 'BILHETE DE IDENTIDADE', colour: '#e9f2e4', accent: '#1f6f3a' },
  languages: ['por'],
};

export const MOZ_PASSPORT: DocumentTemplate = {
  id: 'moz-passport',
  name: 'Mozambique passport',
  country: 'MOZ', type: 'passport', tier: 'calibrated', sizeMm: ID3, sides: ['front'],
  mrz: {
    format: 'TD3', side: 'front', band: TD3_BAND, documentCodes: /^P[A-Z<]$/, sexLetters: ICAO_SEX,
    lineRules: [[{ pattern: /^P[A-Z<]MOZ/, confidence: 'HIGH' }], [{ pattern: /^.{10}MOZ/, confidence: 'HIGH' }]],
    layoutConfidence: 'HIGH',
  },
  documentNumber: { pattern: /^[A-Z]{2}\d{7}$/, confidence: 'LOW', shape: 'AA9999999' },
  zones: rows('front', 0.35, 0.17, 0.08, 0.6, [
    { field: 'surnames', label: 'APELIDO / SURNAME', format: 'text' },
    { field: 'given_names', label: 'NOMES / GIVEN NAMES', format: 'text' },
    { field: 'nationality', label: 'NACIONALIDADE / NATIONALITY', format: 'text' },
    { field: 'date_of_birth', label: 'DATA DE NASCIMENTO / DATE OF BIRTH', format: 'date_dmy_slash' },
    { field: 'sex', label: 'SEXO / SEX', format: 'text' },
    { field: 'document_number', label: 'PASSAPORTE N.º / PASSPORT NO.', format: 'text' },
    { field: 'expiry_date', label: 'VALIDADE / DATE OF EXPIRY', format: 'date_dmy_slash' },
  ]),
  portrait: { side: 'front', box: { x: 0.04, y: 0.19, w: 0.27, h: 0.5 } },
  header: { title: 'REPÚBLICA DE MOÇAMBIQUE', subtitle: 'PASSAPORTE / PASSPORT', colour: '#f1ece0', accent: '#7a2020' },
  languages: ['por', 'eng'],
};

export const MEX_INE: DocumentTemplate = {
  id: 'mex-ine',
  name: 'Mexico INE Credencial para Votar (models D–H)',
  country: 'MEX', type: 'national_id', tier: 'calibrated', sizeMm: ID1, sides: ['front', 'back'],
  mrz: {
    format: 'TD1', side: 'back', band: TD1_BAND, documentCodes: /^ID$/, sexLetters: ['H', 'M'],
    lineRules: [
      [{ pattern: /^IDMEX\d{9}\d<<\d{13}$/, confidence: 'HIGH' }],
      [{ pattern: /^\d{6}\d[HM]\d{2}1231\dMEX<\d{2}<<[\d<]{5}<\d$/, confidence: 'MED' }],
      [],
    ],
    layoutConfidence: 'HIGH',
  },
  documentNumber: { pattern: /^\d{9}$/, confidence: 'HIGH', shape: '999999999' },
  expiryRule: { kind: 'dec31', confidence: 'MED' },
  zones: rows('front', 0.33, 0.2, 0.097, 0.64, [
    { field: 'surnames', label: 'NOMBRE', format: 'text' },
    { field: 'given_names', label: '', format: 'text' },
    { field: 'date_of_birth', label: 'FECHA DE NACIMIENTO', format: 'date_dmy_slash' },
    { field: 'sex', label: 'SEXO', format: 'text' },
    { field: 'clave_elector', label: 'CLAVE DE ELECTOR', format: 'text' },
    { field: 'curp', label: 'CURP', format: 'text' },
    { field: 'seccion', label: 'SECCIÓN', format: 'text' },
    { field: 'vigencia', label: 'VIGENCIA', format: 'vigencia_range' },
  ]),
  portrait: { side: 'front', box: { x: 0.03, y: 0.22, w: 0.27, h: 0.58 } },
  header: { title: 'MÉXICO · INSTITUTO NACIONAL ELECTORAL', subtitle: 'CREDENCIAL PARA VOTAR', colour: '#f4e9f0', accent: '#8a1f5c' },
  languages: ['spa'],
};

export const MEX_PASSPORT: DocumentTemplate = {
  id: 'mex-passport',
  name: 'Mexico passport',
  country: 'MEX', type: 'passport', tier: 'calibrated', sizeMm: ID3, sides: ['front'],
  mrz: {
    format: 'TD3', side: 'front', band: TD3_BAND, documentCodes: /^P[A-Z<]$/, sexLetters: ICAO_SEX,
    lineRules: [[{ pattern: /^P[<P]MEX/, confidence: 'HIGH' }], [{ pattern: /^[A-Z]\d{8}\dMEX/, confidence: 'MED' }]],
    layoutConfidence: 'HIGH',
  },
  documentNumber: { pattern: /^[A-Z]\d{8}$/, confidence: 'MED', shape: 'A99999999' },
  zones: rows('front', 0.35, 0.17, 0.08, 0.6, [
    { field: 'surnames', label: 'APELLIDOS / SURNAMES', format: 'text' },
    { field: 'given_names', label: 'NOMBRES / GIVEN NAMES', format: 'text' },
    { field: 'nationality', label: 'NACIONALIDAD / NATIONALITY', format: 'text' },
    { field: 'date_of_birth', label: 'FECHA DE NACIMIENTO / DATE OF BIRTH', format: 'date_dmy_slash' },
    { field: 'curp', label: 'CURP', format: 'text' },
    { field: 'sex', label: 'SEXO / SEX', format: 'text' },
    { field: 'document_number', label: 'PASAPORTE NO. / PASSPORT NO.', format: 'text' },
    { field: 'expiry_date', label: 'FECHA DE CADUCIDAD / DATE OF EXPIRY', format: 'date_dmy_slash' },
  ]),
  portrait: { side: 'front', box: { x: 0.04, y: 0.19, w: 0.27, h: 0.5 } },
  header: { title: 'ESTADOS UNIDOS MEXICANOS', subtitle: 'PASAPORTE / PASSPORT', colour: '#e6efe6', accent: '#23563a' },
  languages: ['spa', 'eng'],
};

/** Uncalibrated tier: any explicit country's ICAO TD3 passport; the country is bound at run time. */
export const ICAO_TD3: DocumentTemplate = {
  id: 'icao-td3',
  name: 'ICAO 9303 TD3 passport (uncalibrated)',
  country: '*', type: 'passport', tier: 'uncalibrated', sizeMm: ID3, sides: ['front'],
  mrz: {
    format: 'TD3', side: 'front', band: TD3_BAND, documentCodes: /^P[A-Z<]$/, sexLetters: ICAO_SEX,
    lineRules: [[], []], layoutConfidence: 'HIGH',
  },
  documentNumber: { pattern: /^[A-Z0-9]{1,9}$/, confidence: 'HIGH' },
  zones: rows('front', 0.35, 0.17, 0.08, 0.6, [
    { field: 'surnames', label: 'SURNAME', format: 'text' },
    { field: 'given_names', label: 'GIVEN NAMES', format: 'text' },
    { field: 'nationality', label: 'NATIONALITY', format: 'text' },
    { field: 'date_of_birth', label: 'DATE OF BIRTH', format: 'date_dmy_slash' },
    { field: 'sex', label: 'SEX', format: 'text' },
    { field: 'document_number', label: 'PASSPORT NO.', format: 'text' },
    { field: 'expiry_date', label: 'DATE OF EXPIRY', format: 'date_dmy_slash' },
  ]),
  portrait: { side: 'front', box: { x: 0.04, y: 0.19, w: 0.27, h: 0.5 } },
  header: { title: 'PASSPORT', subtitle: 'PASSEPORT', colour: '#eeeef4', accent: '#2a3a7a' },
  languages: ['eng'],
};

export const CALIBRATED = [MOZ_BI, MOZ_PASSPORT, MEX_INE, MEX_PASSPORT];
export const ALL_TEMPLATES = [...CALIBRATED, ICAO_TD3];

export function templateById(id: string): DocumentTemplate | undefined {
  return ALL_TEMPLATES.find((t) => t.id === id);
}

/** The template for a declared document, or the uncalibrated ICAO tier for another country's passport. */
export function templateFor(country: string, type: string): DocumentTemplate | undefined {
  return CALIBRATED.find((t) => t.country === country && t.type === type) ?? (type === 'passport' ? ICAO_TD3 : undefined);
}
