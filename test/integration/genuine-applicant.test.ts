import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { modelsDir, videosDir } from '../../engine/assets.js';
import { encodeCameraJpeg, photograph as cameraCapture } from '../../tools/authenticity/attacks/camera.js';
import { createRng } from '../../tools/authenticity/training/rng.js';
import { renderDocument } from '../../tools/corpus/index.js';
import { loadFaceModels } from '../../engine/faces/models-bundle.js';
import { FACE_SETTINGS_V2 } from '../../engine/faces/settings.js';
import { decodeClip } from '../../tools/faces/testing/clips.js';
import { labelledCapture, labelledCases } from '../../tools/faces/testing/labelled.js';
import { api, signup, sql, submit, tokenOf, upload, waitForStatus } from '../helpers.js';

describe('a genuine applicant end to end', () => {
  it('reads the passport, passes liveness against its challenge, matches the face and concludes no_material_concerns', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ivs-genuine-'));
    try {
      // The live capture: a real clip of a person turning left, right and nodding, with the issued
      // colours simulated on the face (tools/faces/testing), for a timed-script challenge whose
      // slots follow the clip's labelled motion (bench/liveness-labels.json).
      const models = await loadFaceModels(modelsDir(), FACE_SETTINGS_V2);
      const { frames, challenge } = await labelledCapture(models, labelledCases().find((c) => c.id === 'g_krzysiek_turns')!, { light: true });
      await models.release();
      // The same person's frontal frame as the passport portrait, photographed like a phone would.
      const [frontal] = await decodeClip(path.join(videosDir(), 'krzysiek_real.mp4'), { startS: 1, durationS: 0.1, fps: 10, maxSide: 720 });
      const portrait = path.join(dir, 'portrait.jpg');
      writeFileSync(portrait, frontal!.image);
      const doc = await renderDocument({ template: 'moz-passport', seed: 5, portrait: { identity: 'krzysiek', file: portrait } });
      // The document is photographed with the project's phone-camera model (optics, sensor noise,
      // camera JPEG and EXIF), saved with Annex K tables as real phones of the corpus do (the
      // recipe's mozjpeg presets 2–5 are software tables to authenticity v6, decision 14).
      const { data, info } = await sharp(doc.image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const rng = createRng(5);
      const shot = await cameraCapture({ width: info.width, height: info.height, rgb: new Uint8Array(data), zones: [] }, rng, { capturedAt: new Date() });
      const front = await encodeCameraJpeg(shot, rng, new Date(), undefined, 'annex_k');
      const id = doc.truth.identity;

      const { key } = await signup();
      const created = await api('POST', '/v1/verifications', {
        key,
        json: { accepted_documents: [{ country: 'MOZ', types: ['passport'] }], applicant: { given_names: id.given_names, surnames: id.surnames, date_of_birth: id.date_of_birth, document_number: id.document_number } },
      });
      const token = tokenOf(created.body.onboarding_url);
      // Seed the Case with the challenge the clip answers (the server would have issued a random one).
      const now = new Date();
      await sql('update verifications set liveness_challenge = $2 where id = $1', [created.body.id, { ...challenge, issued_at: now.toISOString(), deadline: new Date(now.getTime() + 600_000).toISOString() }]);
      expect((await upload(token, 'document_front', front)).status).toBe(201);
      for (const f of frames) expect((await upload(token, 'liveness_frame', f.image, 'f.jpg', f.meta)).status).toBe(201);
      expect((await submit(token, { country: 'MOZ', type: 'passport' })).status).toBe(202);

      const done = await waitForStatus(key, created.body.id, ['completed', 'failed'], 180_000);
      const checks = done.result.checks;
      const brief = Object.fromEntries(Object.entries(checks).map(([k, v]) => [k, [(v as { status: string }).status, (v as { reasons: string[] }).reasons]]));
      expect(brief).toMatchObject({
        document_ocr: ['passed', []],
        template_match: ['passed', []],
        liveness: ['passed', []],
        face_match: ['passed', []],
      });
      expect(done.assessment, JSON.stringify(brief)).toBe('no_material_concerns');
      expect(done.summary_reasons).toEqual([]);
      expect(done.confidence).toBeGreaterThan(0.5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
