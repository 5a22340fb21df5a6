import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { issueChallenge, ZLivenessChallenge } from '../../../domain/liveness.js';
import { scriptedChallengeForClip, seededRandom } from '../testing/captures.js';
import { decodeClip, ffmpegPath } from '../testing/clips.js';
import { attackSetCases, LABELLED_NOW, labelledCases, pageRateHeldOut, pageRateSetCases, unseenSetCases } from '../testing/labelled.js';
import { loadPublicVideos, PUBLIC_VIDEO_MANIFESTS, PUBLIC_VIDEOS_DATA_DIR } from './fetch.js';

// The page-rate set (wt27d): public footage at >= 10 fps, bench/liveness-page-rate.json over
// tools/faces/public/page-rate-videos.json. The manifest's pins and fetched bytes are checked with
// the other manifests in unseen.test.ts (it loads every manifest of PUBLIC_VIDEO_MANIFESTS).
describe('public page-rate set (bench/liveness-page-rate.json)', () => {
  const cases = pageRateSetCases();
  const clips = loadPublicVideos(['page-rate-videos.json']);
  const clipOf = new Map(clips.map((v) => [v.name, v]));

  it('is fetched with the other public clips and pins a real repository version of every clip', () => {
    expect(PUBLIC_VIDEO_MANIFESTS).toContain('page-rate-videos.json');
    expect(clips.length).toBeGreaterThan(0);
    for (const v of clips) {
      expect(v.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(v.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('every case is a labelled segment of a page-rate clip with a kind the bench reports, and ids are its own', () => {
    expect(cases.length).toBeGreaterThan(0);
    const others = new Set([...labelledCases(), ...attackSetCases(), ...unseenSetCases()].map((c) => c.id));
    for (const c of cases) {
      expect(others.has(c.id), `${c.id} clashes with another set`).toBe(false);
      expect(['genuine', 'screen_replay', 'print', 'deepfake']).toContain(c.kind);
      expect(clipOf.has(c.file.slice('public/'.length)), `${c.id}: ${c.file} is not in page-rate-videos.json`).toBe(true);
      for (const s of c.steps) {
        expect(s.motion_s[0]).toBeGreaterThanOrEqual(c.neutral_s);
        expect(s.motion_s[1]).toBeGreaterThan(s.motion_s[0]);
        expect(s.motion_s[1]).toBeLessThanOrEqual(c.duration_s);
      }
    }
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  it('each case sits on the side of the split that the hash rule on its source repository gives', () => {
    // The rule is the labelled set's (sha256 starts with 0–4), keyed on the repository so that a
    // swap and the genuine clip it was made from, or two halves of one clip, never sit on both sides.
    // sha256: "ai-forever/ghost" c…, "a" c…, "b" 3…, "d" 1…
    expect([pageRateHeldOut('ai-forever/ghost'), pageRateHeldOut('a'), pageRateHeldOut('b'), pageRateHeldOut('d')]).toEqual([false, false, true, true]);
    for (const c of cases) expect(c.held_out, c.id).toBe(pageRateHeldOut(clipOf.get(c.file.slice('public/'.length))!.repo));
  });

  it('each case gives a valid timed-script challenge', () => {
    for (const [n, c] of cases.entries()) {
      const ch = scriptedChallengeForClip(
        issueChallenge(seededRandom(8000 + n), LABELLED_NOW),
        Math.round(c.duration_s * 1000),
        Math.round(c.neutral_s * 1000),
        c.steps.map((s) => ({ step: s.step, startMs: s.motion_s[0] * 1000, endMs: s.motion_s[1] * 1000 })),
      );
      expect(ZLivenessChallenge.safeParse(ch).success, c.id).toBe(true);
    }
  });

  // `crop: 'centre'` keeps the middle square of a wide frame (srujan_original.mp4: a square picture in a white 16:9 frame).
  const wide = path.join(PUBLIC_VIDEOS_DATA_DIR, 'srujan_original.mp4');
  const haveFfmpeg = (() => {
    try {
      execFileSync(ffmpegPath(), ['-version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!existsSync(wide) || !haveFfmpeg)('the centre crop decodes the middle square of a wide clip', async () => {
    const frames = await decodeClip(wide, { startS: 0, durationS: 0.5, fps: 10, maxSide: 480, crop: 'centre' });
    expect(frames.length).toBeGreaterThanOrEqual(4);
    // A JPEG's SOF0 marker holds its height and width: a square crop scaled to 480 is 480 × 480.
    const img = frames[0]!.image;
    const sof = img.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sof).toBeGreaterThan(0);
    expect([img.readUInt16BE(sof + 5), img.readUInt16BE(sof + 7)]).toEqual([480, 480]);
  });
});
