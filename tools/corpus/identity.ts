import { curpCheckDigit } from '../../engine/document/mrz/check-digit.js';
import type { DocumentTemplate } from '../../engine/document/templates/types.js';
import { createRng, type Rng } from './random.js';

/** Everything printed on one synthetic document; this is also the ground truth. */
export interface DocumentIdentity {
  template: string;
  issuing_state: string;
  nationality: string;
  surnames: string; // as printed in the visual zone, accents kept
  given_names: string;
  date_of_birth: string; // YYYY-MM-DD
  sex: 'F' | 'M';
  document_number: string;
  issue_date: string;
  expiry_date: string;
  curp?: string;
  clave_elector?: string;
  seccion?: string;
  identificador?: string;
  emision?: string;
  ine_model?: 'D' | 'E' | 'F' | 'G' | 'H';
  vigencia_start?: string;
}

const MOZ_SURNAMES = ['MACHEL', 'CHISSANO', 'NHANTUMBO', 'MONDLANE', 'SITOE', 'MACUÁCUA', 'COSSA', 'MUIANGA', 'TEMBE', 'BILA', 'LANGA', 'MAGAIA', 'ZIMBA', 'GONÇALVES', 'FERNANDES', 'SIMÃO', 'JOÃO', 'MATSINHE', 'CHAMBAL', 'NHAMPOSSA'];
const MOZ_GIVEN = ['JOÃO', 'MARIA', 'ANA', 'CELESTINO', 'ESPERANÇA', 'FÁTIMA', 'ARMANDO', 'LUÍSA', 'TOMÁS', 'INÊS', 'GRAÇA', 'ALBERTINA', 'DÉLCIO', 'CÂNDIDA', 'EDSON', 'ARSÉNIO', 'NÉLIA', 'AMÉLIA'];
const MEX_SURNAMES = ['GARCÍA', 'HERNÁNDEZ', 'MARTÍNEZ', 'LÓPEZ', 'GONZÁLEZ', 'PÉREZ', 'RODRÍGUEZ', 'SÁNCHEZ', 'RAMÍREZ', 'CRUZ', 'FLORES', 'GÓMEZ', 'MUÑOZ', 'PEÑA', 'NÚÑEZ', 'ORTIZ', 'CASTAÑEDA', 'VÁZQUEZ', 'DE LA CRUZ', 'IBÁÑEZ'];
const MEX_GIVEN_F = ['MARÍA GUADALUPE', 'ANA LUISA', 'XIMENA', 'SOFÍA', 'FERNANDA', 'MARÍA JOSÉ', 'ITZEL', 'BEATRIZ'];
const MEX_GIVEN_M = ['JOSÉ LUIS', 'JUAN CARLOS', 'SANTIAGO', 'MIGUEL ÁNGEL', 'JESÚS', 'EMILIANO', 'RAÚL', 'ÓSCAR'];
const OTHER_SURNAMES = ['ERIKSSON', 'OKAFOR', 'SILVA', 'NGUYEN', 'MÜLLER', "O'BRIEN", 'SMITH-JONES', 'KOWALSKI', 'DUBOIS', 'TANAKA'];
const OTHER_GIVEN = ['ANNA MARIA', 'CHIDI', 'LUCAS', 'MINH', 'JÜRGEN', 'SEÁN', 'OLIVIA', 'PIOTR', 'CHLOÉ', 'HARUTO'];
const CURP_STATES = ['AS', 'BC', 'BS', 'CC', 'CL', 'CM', 'CS', 'CH', 'DF', 'DG', 'GT', 'GR', 'HG', 'JC', 'MC', 'MN', 'MS', 'NT', 'NL', 'OC', 'PL', 'QT', 'QR', 'SP', 'SL', 'SR', 'TC', 'TS', 'TL', 'VZ', 'YN', 'ZS'];
// INEGI order for the Clave de Elector (DOCUMENT_FACTS §2.3); DF is 09 in this order.
const INEGI = ['AS', 'BC', 'BS', 'CC', 'CL', 'CM', 'CS', 'CH', 'DF', 'DG', 'GT', 'GR', 'HG', 'JC', 'MC', 'MN', 'MS', 'NT', 'NL', 'OC', 'PL', 'QT', 'QR', 'SP', 'SL', 'SR', 'TC', 'TS', 'TL', 'VZ', 'YN', 'ZS'];
export const OTHER_STATES = ['UTO', 'D<<', 'PRT', 'ZAF', 'BRA', 'ESP', 'NGA', 'GBR', 'FRA', 'JPN'];

const iso = (d: Date) => d.toISOString().slice(0, 10);
const plain = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/Ñ/g, 'X');

function randomDate(rng: Rng, fromYear: number, toYear: number): string {
  const start = Date.UTC(fromYear, 0, 1);
  const end = Date.UTC(toYear, 11, 31);
  return iso(new Date(start + Math.floor(rng.next() * (end - start) / 86400000) * 86400000));
}

function addYears(isoDate: string, years: number, days = 0): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  d.setUTCDate(d.getUTCDate() + days);
  return iso(d);
}

const digits = (rng: Rng, n: number) => Array.from({ length: n }, () => rng.int(0, 9)).join('');
const letters = (rng: Rng, n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + rng.int(0, 25))).join('');

function firstInternal(word: string, vowels: boolean): string {
  const w = plain(word).replace(/[^A-Z]/g, '');
  for (const c of w.slice(1)) if ('AEIOU'.includes(c) === vowels) return c;
  return 'X';
}

/** CURP built by its construction rules (DOCUMENT_FACTS §3) so that cross-field checks are real. */
export function buildCurp(paterno: string, materno: string, given: string, dob: string, sex: 'H' | 'M', state: string, rng: Rng): string {
  const p = plain(paterno).replace(/^(DE LA|DE|DEL) /, '');
  const m = plain(materno).replace(/^(DE LA|DE|DEL) /, '');
  const names = plain(given).split(' ');
  const g = names.length > 1 && ['MARIA', 'JOSE'].includes(names[0]!) ? names[1]! : names[0]!;
  const yy = dob.slice(2, 4) + dob.slice(5, 7) + dob.slice(8, 10);
  const diff = Number(dob.slice(0, 4)) >= 2000 ? String.fromCharCode(65 + rng.int(0, 25)) : String(rng.int(0, 9));
  const head = p[0]! + firstInternal(p, true) + (m[0] ?? 'X') + g[0]! + yy + sex + state + firstInternal(p, false) + firstInternal(m, false) + firstInternal(g, false) + diff;
  return head + curpCheckDigit(head);
}

function consonants(word: string): string {
  const w = plain(word).replace(/^(DE LA|DE|DEL) /, '').replace(/[^A-Z]/g, '');
  return w[0]! + firstInternal(w, false);
}

export function randomIdentity(template: DocumentTemplate, seed: number, opts: { country?: string; now?: Date } = {}): DocumentIdentity {
  const rng = createRng(seed);
  const now = opts.now ?? new Date('2026-11-21T00:00:00Z');
  const year = now.getUTCFullYear();
  const sex: 'F' | 'M' = rng.chance(0.5) ? 'F' : 'M';
  const dob = randomDate(rng, 1950, year - 19);
  // Issue dates late enough that the shortest validity (3 years) has not run out: genuine means valid.
  const issue = randomDate(rng, year - 2, year - 1);
  const base = { template: template.id, date_of_birth: dob, sex, issue_date: issue };

  switch (template.id) {
    case 'moz-bi':
    case 'moz-passport': {
      const surnames = rng.chance(0.4) ? `${rng.pick(MOZ_SURNAMES)} ${rng.pick(MOZ_SURNAMES)}` : rng.pick(MOZ_SURNAMES);
      const given = rng.chance(0.5) ? `${rng.pick(MOZ_GIVEN)} ${rng.pick(MOZ_GIVEN)}` : rng.pick(MOZ_GIVEN);
      const isBi = template.id === 'moz-bi';
      return {
        ...base, issuing_state: 'MOZ', nationality: 'MOZ', surnames, given_names: given,
        document_number: isBi ? digits(rng, 12) + letters(rng, 1) : letters(rng, 2) + digits(rng, 7),
        expiry_date: addYears(issue, isBi ? 10 : 5, -1),
      };
    }
    case 'mex-ine': {
      const paterno = rng.pick(MEX_SURNAMES);
      const materno = rng.pick(MEX_SURNAMES);
      const given = rng.pick(sex === 'F' ? MEX_GIVEN_F : MEX_GIVEN_M);
      const state = rng.pick(CURP_STATES);
      const sx = sex === 'F' ? 'M' : 'H';
      const curp = buildCurp(paterno, materno, given, dob, sx, state, rng);
      const clave = consonants(paterno) + consonants(materno) + consonants(given.split(' ')[0]!)
        + curp.slice(4, 10) + String(INEGI.indexOf(state) + 1).padStart(2, '0') + sx + `${rng.int(1, 9)}00`;
      const start = Number(issue.slice(0, 4));
      return {
        ...base, issuing_state: 'MEX', nationality: 'MEX', surnames: `${paterno} ${materno}`, given_names: given,
        document_number: digits(rng, 9), expiry_date: `${start + 10}-12-31`, curp, clave_elector: clave,
        seccion: digits(rng, 4), identificador: digits(rng, 9), emision: String(rng.int(1, 4)).padStart(2, '0'),
        ine_model: rng.pick(['D', 'E', 'F', 'G', 'H'] as const), vigencia_start: String(start),
      };
    }
    case 'mex-passport': {
      const paterno = rng.pick(MEX_SURNAMES);
      const materno = rng.pick(MEX_SURNAMES);
      const given = rng.pick(sex === 'F' ? MEX_GIVEN_F : MEX_GIVEN_M);
      const curp = buildCurp(paterno, materno, given, dob, sex === 'F' ? 'M' : 'H', rng.pick(CURP_STATES), rng);
      return {
        ...base, issuing_state: 'MEX', nationality: 'MEX', surnames: `${paterno} ${materno}`, given_names: given,
        document_number: 'G' + digits(rng, 8), expiry_date: addYears(issue, rng.pick([3, 6, 10]), -1), curp,
      };
    }
    default: {
      const state = opts.country ?? rng.pick(OTHER_STATES.filter((s) => s.length === 3 && !s.includes('<')));
      return {
        ...base, issuing_state: state, nationality: state, surnames: rng.pick(OTHER_SURNAMES), given_names: rng.pick(OTHER_GIVEN),
        document_number: letters(rng, 2) + digits(rng, 7), expiry_date: addYears(issue, 10, -1),
      };
    }
  }
}

/** The INE vigencia as printed: models G/H show `start - end`, earlier models only the end year. */
export function vigenciaText(id: DocumentIdentity): string {
  const end = id.expiry_date.slice(0, 4);
  return id.ine_model === 'G' || id.ine_model === 'H' ? `${id.vigencia_start} - ${end}` : end;
}

