import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { api, countRows, createVerification, sampleJpeg, signup, sql, stack, submit, tokenOf, upload } from '../helpers.js';

/** A valid PNG header claiming 60000×60000 pixels with a tiny compressed body: a decompression bomb. */
function decompressionBombPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(60000, 0);
  ihdr.writeUInt32BE(60000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const idat = zlib.deflateSync(Buffer.alloc(60001 * 64)); // a few rows of zeros; the rest would expand to 3.6 GB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

async function raw(method: string, path: string, body: string, key?: string, contentType = 'application/json') {
  const res = await fetch(`${stack().apiUrl}${path}`, { method, body, headers: { 'content-type': contentType, ...(key ? { 'x-api-key': key } : {}) } });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
}

describe('bad input gets a clear 4xx problem and changes nothing', () => {
  it('rejects bad verification bodies with a code and the offending field', async () => {
    const { projectId, key } = await signup();
    const before = await countRows('verifications', 'project_id = $1', [projectId]);
    const cases: [string, string, number, string, string | RegExp][] = [
      ['malformed JSON', '{"type": "kyc", ', 400, 'malformed_json', '(body)'],
      ['wrong type for accepted_documents', JSON.stringify({ accepted_documents: 'MEX' }), 400, 'validation_failed', 'accepted_documents'],
      ['wrong type inside applicant', JSON.stringify({ accepted_documents: [{ country: 'MEX', types: ['passport'] }], applicant: { date_of_birth: 19900315 } }), 400, 'validation_failed', 'applicant.date_of_birth'],
      ['unknown document type', JSON.stringify({ accepted_documents: [{ country: 'MEX', types: ['library_card'] }] }), 400, 'validation_failed', /accepted_documents\.0\.types/],
      ['unknown top-level field', JSON.stringify({ accepted_documents: [{ country: 'MEX', types: ['passport'] }], colour: 'red' }), 400, 'validation_failed', /colour/],
      ['wildcard country *', JSON.stringify({ accepted_documents: [{ country: '*', types: ['passport'] }] }), 422, 'wildcard_country_not_allowed', 'accepted_documents.0.country'],
      ['wildcard country ANY', JSON.stringify({ accepted_documents: [{ country: 'MEX', types: ['passport'] }, { country: 'ANY', types: ['passport'] }] }), 422, 'wildcard_country_not_allowed', 'accepted_documents.1.country'],
      ['unknown country', JSON.stringify({ accepted_documents: [{ country: 'QQQ', types: ['passport'] }] }), 422, 'unknown_country', 'accepted_documents.0.country'],
      ['kyb', JSON.stringify({ type: 'kyb', accepted_documents: [{ country: 'MEX', types: ['passport'] }] }), 422, 'kyb_not_available', 'type'],
      ['empty accepted_documents', JSON.stringify({ accepted_documents: [] }), 400, 'validation_failed', 'accepted_documents'],
    ];
    for (const [label, body, status, code, field] of cases) {
      const r = await raw('POST', '/v1/verifications', body, key);
      expect(r.status, label).toBe(status);
      expect(r.type, label).toContain('application/problem+json');
      expect(r.body.code, label).toBe(code);
      expect(r.body.errors?.map((e: { field: string }) => e.field).join(' '), label).toMatch(field);
    }
    expect(await countRows('verifications', 'project_id = $1', [projectId])).toBe(before);
  });

  it('rejects bad uploads: non-image bytes, HEIC, a decompression bomb, oversize, unknown kind, too many files', async () => {
    const { key } = await signup();
    const v = await createVerification(key);
    const token = tokenOf(v.onboarding_url);
    const uploads = () => countRows('uploads', 'verification_id = $1', [v.id]);

    const notImage = await upload(token, 'document_front', Buffer.from('%PDF-1.7 definitely not an image'), 'x.jpg');
    expect(notImage.status).toBe(415);
    expect(notImage.body).toMatchObject({ code: 'unsupported_image_format' });
    expect(notImage.body.errors[0].field).toBe('file');

    const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(64)]);
    const heicR = await upload(token, 'document_front', heic, 'IMG_0001.HEIC');
    expect(heicR.status).toBe(415);
    expect(heicR.body.detail).toMatch(/HEIC/);

    const t0 = Date.now();
    const bomb = await upload(token, 'document_front', decompressionBombPng(), 'bomb.png');
    expect(bomb.status).toBe(422);
    expect(bomb.body.code).toBe('image_too_large');
    expect(Date.now() - t0).toBeLessThan(2000);

    const huge = await upload(token, 'document_front', Buffer.concat([await sampleJpeg(), Buffer.alloc(11 * 1024 * 1024)]), 'huge.jpg');
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('payload_too_large');

    const kind = await upload(token, 'passport_photo', await sampleJpeg());
    expect(kind.status).toBe(400);
    expect(kind.body.errors[0].field).toBe('kind');

    const two = new FormData();
    two.append('kind', 'document_front');
    two.append('file', new Blob([new Uint8Array(await sampleJpeg())]), 'a.jpg');
    two.append('file', new Blob([new Uint8Array(await sampleJpeg())]), 'b.jpg');
    const twoR = await api('POST', `/o/${token}/uploads`, { body: two });
    expect(twoR.status).toBe(413);
    expect(twoR.body.code).toBe('too_many_uploads');

    expect(await uploads()).toBe(0);
  });

  it('caps the number of uploads per verification', async () => {
    const { key } = await signup();
    const v = await createVerification(key);
    const token = tokenOf(v.onboarding_url);
    const frame = await sampleJpeg(160, 120);
    const challenge = (await api('POST', `/o/${token}/challenge`)).body;
    let last = 0;
    for (let i = 0; i < 121; i++) last = (await upload(token, 'liveness_frame', frame, `f${i}.jpg`, { nonce: challenge.nonce, timestamp_ms: i * 80, colour: challenge.colours[0].colour })).status;
    expect(last).toBe(413);
    expect(await countRows('uploads', 'verification_id = $1', [v.id])).toBe(120);
  });

  it('refuses a submit without a document image, an undeclared document, and uploads after submit', async () => {
    const { key } = await signup();
    const v = await createVerification(key);
    const token = tokenOf(v.onboarding_url);
    const noDoc = await submit(token);
    expect(noDoc.status).toBe(422);
    expect(noDoc.body.code).toBe('document_image_required');
    expect((await api('GET', `/v1/verifications/${v.id}`, { key })).body.status).toBe('collecting');

    expect((await upload(token, 'document_front', await sampleJpeg())).status).toBe(201);
    const wrongDoc = await submit(token, { country: 'MOZ', type: 'passport' });
    expect(wrongDoc.status).toBe(422);
    expect(wrongDoc.body.code).toBe('document_not_accepted');
    const wildcard = await submit(token, { country: '*', type: 'passport' });
    expect(wildcard.status).toBe(400); // the schema wants a 2–3 letter code

    expect((await submit(token)).status).toBe(202);
    const late = await upload(token, 'selfie', await sampleJpeg());
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('capture_already_submitted');
    const twice = await submit(token);
    expect(twice.status).toBe(409);
    expect(await countRows('uploads', 'verification_id = $1', [v.id])).toBe(1);
  });

  it('refuses uploads with an unknown token (401), on an expired session (410) and on an erased Case (410), storing nothing', async () => {
    const jpeg = await sampleJpeg();
    const unknown = await upload('cs_not_a_real_token_0123456789abcdef', 'document_front', jpeg);
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('unauthorized');

    const { key } = await signup();
    const expired = await createVerification(key);
    await sql("update capture_sessions set expires_at = now() - interval '1 second' where verification_id = $1", [expired.id]);
    const late = await upload(tokenOf(expired.onboarding_url), 'document_front', jpeg);
    expect(late.status).toBe(410);
    expect(late.body.code).toBe('session_expired');

    const erased = await createVerification(key);
    expect((await api('DELETE', `/v1/verifications/${erased.id}`, { key })).status).toBe(200);
    const gone = await upload(tokenOf(erased.onboarding_url), 'document_front', jpeg);
    expect(gone.status).toBe(410);
    expect(gone.body.code).toBe('verification_erased');
    expect(await countRows('uploads', 'verification_id = any($1)', [[expired.id, erased.id]])).toBe(0);
  });
});
