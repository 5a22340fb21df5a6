import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { degrade, degradationFor, forgeDocument, photograph, renderDocument, type RenderedDocument } from '../../tools/corpus/index.js';
import { createDocumentEngine, type AnalyzeInput, type DocumentEngine } from './index.js';

const NOW = new Date('2026-11-21T00:00:00Z');
type Declared = AnalyzeInput['declared'];
const DECLARED: Record<string, Declared> = {
  'moz-bi': { country: 'MOZ', type: 'national_id' },
  'moz-passport': { country: 'MOZ', type: 'passport' },
  'mex-ine': { country: 'MEX', type: 'national_id' },
  'mex-passport': { country: 'MEX', type: 'passport' },
};

let engine: DocumentEngine;

async function photographed(doc: RenderedDocument, seed = 1) {
  return { front: (await photograph(doc.image, seed)).image, back: doc.back ? (await photograph(doc.back, seed + 1)).image : undefined };
}

function analyze(doc: { front: Buffer; back?: Buffer }, declared: Declared, extra: Partial<AnalyzeInput> = {}) {
  return engine.analyze({ ...doc, declared, accepted: [{ country: declared.country, types: [declared.type] }], now: NOW, ...extra });
}

beforeAll(async () => {
  engine = await createDocumentEngine();
});
afterAll(async () => {
  await engine.close();
});

describe('genuine calibrated documents', () => {
  it.each(Object.keys(DECLARED))('%s passes OCR and template match', async (template) => {
    const doc = await renderDocument({ template, seed: 101 });
    const res = await analyze(await photographed(doc), DECLARED[template]!, {
      applicant: { surnames: doc.truth.identity.surnames, given_names: doc.truth.identity.given_names, date_of_birth: doc.truth.identity.date_of_birth },
    });
    expect(res.tier).toBe('calibrated');
    expect(res.ocr.status, JSON.stringify(res.ocr.reasons)).toBe('passed');
    expect(res.template.status, JSON.stringify(res.template.reasons)).toBe('passed');
    expect(res.extracted.document_number).toBe(doc.truth.identity.document_number);
    expect(res.extracted.date_of_birth).toBe(doc.truth.identity.date_of_birth);
    expect(res.portrait).toBeDefined();
    expect(res.normalized!.subarray(0, 2).toString('hex')).toBe('ffd8');
  });

  it('reads an INE card of a man (MRZ sex H) and reports ICAO sex M', async () => {
    let seed = 200;
    let doc = await renderDocument({ template: 'mex-ine', seed });
    while (doc.truth.identity.sex !== 'M') doc = await renderDocument({ template: 'mex-ine', seed: ++seed });
    expect(doc.truth.mrz.lines[1]![7]).toBe('H');
    const res = await analyze(await photographed(doc), DECLARED['mex-ine']!);
    expect(res.template.status, JSON.stringify(res.template.reasons)).toBe('passed');
    expect(res.extracted.sex).toBe('M');
    expect(res.extracted.curp).toBe(doc.truth.identity.curp);
  });

  it('reads a passport photographed with a moderate rotation', async () => {
    const doc = await renderDocument({ template: 'mex-passport', seed: 303 });
    const scene = await degrade(await photograph(doc.image, 3), degradationFor('rotation', 'moderate', 3));
    const res = await analyze({ front: scene.image }, DECLARED['mex-passport']!);
    expect((res.ocr.evidence as { mrz: { lines: string[] } }).mrz.lines).toEqual(doc.truth.mrz.lines);
    expect(res.ocr.status).toBe('passed');
  });
});

describe('forgeries', () => {
  it.each([
    ['broken_check_digit', 'mex-passport', 'mrz_check_digit_mismatch'],
    ['mrz_visual_mismatch', 'moz-passport', 'visual_mrz_mismatch'],
    ['expired', 'mex-ine', 'document_expired'],
    ['wrong_issuing_state', 'moz-bi', 'issuing_state_mismatch'],
    ['edited_number', 'mex-passport', 'visual_mrz_mismatch'],
  ] as const)('%s on %s is flagged %s', async (kind, template, reason) => {
    const doc = await forgeDocument(kind, { template, seed: 404, now: NOW });
    const res = await analyze(await photographed(doc), DECLARED[template]!);
    const reasons = [...res.ocr.reasons, ...res.template.reasons];
    expect(reasons).toContain(reason);
    expect([res.ocr.status, res.template.status]).toContain('failed');
  });
});

describe('scope and input errors', () => {
  it('refuses to start with an MRZ model that does not match its pin', async () => {
    await expect(createDocumentEngine({ tessdata: { mrzSha256: '0'.repeat(64) } })).rejects.toMatchObject({ code: 'ocr_model_mismatch' });
  });

  it('gives up on OCR past its timeout and says so, never a pass', async () => {
    const slow = await createDocumentEngine({ ocr: { ...engine.settings.ocr, visualTimeoutMs: 1 } });
    try {
      const doc = await renderDocument({ template: 'moz-passport', seed: 808 });
      const res = await slow.analyze({ front: doc.image, declared: DECLARED['moz-passport']!, accepted: [{ country: 'MOZ', types: ['passport'] }], now: NOW });
      expect(res.ocr.status).toBe('unavailable');
      expect(res.ocr.reasons).toEqual(['ocr_timeout']);
    } finally {
      await slow.close();
    }
  });

  it('stamps the models that produced an outcome', () => {
    expect(engine.models.map((m) => m.name)).toEqual(expect.arrayContaining(['tessdata/mrz.traineddata', 'fonts-ocr-b/OCRB.otf']));
  });

  it('refuses HEIC and garbage bytes with unsupported_image_format', async () => {
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(64)]);
    for (const bytes of [heic, Buffer.from('not an image at all')]) {
      const res = await analyze({ front: bytes }, DECLARED['mex-passport']!);
      expect(res.ocr.status).toBe('unavailable');
      expect(res.ocr.reasons).toEqual(['unsupported_image_format']);
    }
  });

  it('a document outside the accepted list fails template match with document_not_accepted', async () => {
    const doc = await renderDocument({ template: 'mex-passport', seed: 505 });
    const res = await engine.analyze({ ...(await photographed(doc)), declared: DECLARED['mex-passport']!, accepted: [{ country: 'MOZ', types: ['passport', 'national_id'] }], now: NOW });
    expect(res.template.status).toBe('failed');
    expect(res.template.reasons).toContain('document_not_accepted');
  });

  it('another country\'s passport runs uncalibrated with uncalibrated_document_scope', async () => {
    const doc = await renderDocument({ template: 'icao-td3', seed: 606 });
    const country = doc.truth.identity.issuing_state;
    const res = await analyze(await photographed(doc), { country, type: 'passport' });
    expect(res.tier).toBe('uncalibrated');
    expect(res.ocr.reasons).toContain('uncalibrated_document_scope');
    expect(res.template.reasons).toContain('uncalibrated_document_scope');
    expect(res.ocr.status).toBe('review');
    expect(res.extracted.issuing_state).toBe(country);
  });

  it('an unsupported document type is unavailable, never a pass', async () => {
    const doc = await renderDocument({ template: 'mex-passport', seed: 1 });
    const res = await analyze({ front: doc.image }, { country: 'BRA', type: 'driving_licence' });
    expect(res.tier).toBe('unsupported');
    expect(res.ocr.status).toBe('unavailable');
  });

  it('flags applicant data that does not match the document', async () => {
    const doc = await renderDocument({ template: 'moz-passport', seed: 707 });
    const res = await analyze(await photographed(doc), DECLARED['moz-passport']!, {
      applicant: { surnames: 'HERNANDEZ', given_names: doc.truth.identity.given_names, date_of_birth: '1971-01-02' },
    });
    expect(res.ocr.status).toBe('failed');
    expect(res.ocr.reasons).toContain('applicant_data_mismatch');
    // Reason codes stay PII-free: the names live only in the evidence.
    expect(JSON.stringify(res.ocr.reasons)).not.toContain('HERNANDEZ');
  });
});
