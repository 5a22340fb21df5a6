import { buildTd1, buildTd3, type MrzData } from '../../engine/document/mrz/encode.js';
import type { DocumentTemplate } from '../../engine/document/templates/types.js';
import type { DocumentIdentity } from './identity.js';

/** The MRZ a genuine issuer would print for this identity on this template. */
export function mrzLinesFor(template: DocumentTemplate, id: DocumentIdentity): string[] {
  const common: MrzData = {
    documentCode: template.mrz.format === 'TD3' ? 'P<' : 'ID',
    issuingState: id.issuing_state, nationality: id.nationality, documentNumber: id.document_number,
    birthDate: id.date_of_birth, sex: id.sex, expiryDate: id.expiry_date, surnames: id.surnames, givenNames: id.given_names,
  };
  if (template.id === 'mex-ine') {
    return buildTd1({
      ...common,
      sex: id.sex === 'F' ? 'M' : 'H',
      optional1: `<<${id.seccion}${id.identificador}`,
      optional2: `<${id.emision}<<${id.identificador!.slice(0, 5)}<`,
    });
  }
  return template.mrz.format === 'TD3' ? buildTd3(common) : buildTd1(common);
}
