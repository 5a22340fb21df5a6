import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../../engine/assets.js';
import { api, countRows, createVerification, signup, submit, tokenOf } from '../helpers.js';

// A real scan of a UK specimen passport data page (documents-real, tuning split), and the same
// photo made blurry and cut off the way applicants' photos go wrong.
const REAL = path.join(sharedDir(), 'documents-real', 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg');

async function uploadDocument(token: string, kind: string, file: Buffer, documentType?: string) {
  const form = new FormData();
  form.append('kind', kind);
  if (documentType !== undefined) form.append('document_type', documentType);
  form.append('file', new Blob([new Uint8Array(file)]), 'photo.jpg');
  return api('POST', `/o/${token}/uploads`, { body: form });
}

async function variants() {
  const good = readFileSync(REAL);
  const { width, height } = await sharp(good).metadata();
  return {
    good,
    blurry: await sharp(good).blur(Math.max(width!, height!) / 400).jpeg({ quality: 90 }).toBuffer(),
    // the right 40 % missing: the MRZ lines run out of the photo
    cut: await sharp(good).extract({ left: 0, top: 0, width: Math.round(width! * 0.6), height: height! }).jpeg({ quality: 90 }).toBuffer(),
  };
}

describe.runIf(existsSync(REAL))('capture advice on the real upload endpoint', () => {
  it('a good real passport scan gets no advice; blurred or cut off, it gets the code to fix, and the photo is kept either way', async () => {
    const { key } = await signup('advice');
    const v = await createVerification(key, { accepted_documents: [{ country: 'GBR', types: ['passport'] }] });
    const token = tokenOf(v.onboarding_url);
    const img = await variants();

    const good = await uploadDocument(token, 'document_front', img.good, 'passport');
    expect(good.status).toBe(201);
    expect(good.body.advice).toMatchObject({ status: 'checked', issues: [], retake_suggested: false, version: 'capture-advice@1.5.0' });

    const blurry = await uploadDocument(token, 'document_front', img.blurry, 'passport');
    expect(blurry.status).toBe(201);
    expect(blurry.body.advice.status).toBe('checked');
    expect(blurry.body.advice.issues).toContain('blurry');
    expect(blurry.body.advice.retake_suggested).toBe(true);

    // No document_type sent: the Case accepts passports only, so the MRZ is expected anyway.
    const cut = await uploadDocument(token, 'document_front', img.cut);
    expect(cut.status).toBe(201);
    expect(cut.body.advice.issues).toContain('document_cut_off');
    expect(cut.body.advice.issues).not.toContain('blurry');

    // Advice only: the last photo is the stored one, and the Case can be submitted with it.
    const session = await api('GET', `/o/${token}/session`);
    expect(session.body.uploads).toEqual([{ upload_id: cut.body.upload_id, kind: 'document_front' }]);
    expect((await submit(token, { country: 'GBR', type: 'passport' })).status).toBe(202);
  }, 120_000);

  it('looks for the MRZ only where the chosen document has one', async () => {
    const { key } = await signup('advice-types');
    const v = await createVerification(key, { accepted_documents: [{ country: 'GBR', types: ['passport', 'driving_licence', 'national_id'] }] });
    const token = tokenOf(v.onboarding_url);
    const { cut } = await variants();
    // A driving licence has no MRZ, and an ID card has it on the back: a sharp photo gets no advice.
    expect((await uploadDocument(token, 'document_front', cut, 'driving_licence')).body.advice.issues).toEqual([]);
    expect((await uploadDocument(token, 'document_front', cut, 'national_id')).body.advice.issues).toEqual([]);
    expect((await uploadDocument(token, 'document_back', cut, 'national_id')).body.advice.issues).toContain('document_cut_off');
  }, 120_000);

  it('bad input still answers problem+json naming the field, and stores nothing', async () => {
    const { key } = await signup('advice-bad');
    const v = await createVerification(key, { accepted_documents: [{ country: 'GBR', types: ['passport'] }] });
    const token = tokenOf(v.onboarding_url);
    const { good } = await variants();

    const badType = await uploadDocument(token, 'document_front', good, 'banana');
    expect(badType.status).toBe(400);
    expect(badType.headers.get('content-type')).toContain('application/problem+json');
    expect(badType.body.code).toBe('validation_failed');
    expect(badType.body.errors).toEqual([expect.objectContaining({ field: 'document_type', code: 'invalid_enum_value' })]);

    const notImage = await uploadDocument(token, 'document_front', Buffer.from('%PDF-1.7 not a photo'), 'passport');
    expect(notImage.status).toBe(415);
    expect(notImage.headers.get('content-type')).toContain('application/problem+json');
    expect(notImage.body.errors[0].field).toBe('file');
    expect(notImage.body.advice).toBeUndefined();

    expect(await countRows('uploads', 'verification_id = $1', [v.id])).toBe(0);
  }, 60_000);
});
