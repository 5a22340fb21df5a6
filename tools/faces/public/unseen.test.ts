import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { issueChallenge, ZLivenessChallenge } from '../../../domain/liveness.js';
import { scriptedChallengeForClip, seededRandom } from '../testing/captures.js';
import { attackSetCases, frameSequenceFrames, LABELLED_NOW, labelledCases, unseenSetCases, unseenTuningCases } from '../testing/labelled.js';
import { frameSequenceDir, loadPublicFrameSequences, loadPublicVideos, PUBLIC_VIDEO_MANIFESTS, PUBLIC_VIDEOS_DATA_DIR, sequenceDigest } from './fetch.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('public liveness clips (videos.json, attack-videos.json, unseen-videos.json)', () => {
  const all = loadPublicVideos();

  it('every manifest entry names its repository, commit, path, sha256, size and licence; names are unique', () => {
    expect(PUBLIC_VIDEO_MANIFESTS).toContain('unseen-videos.json');
    expect(loadPublicVideos(['unseen-videos.json']).length).toBeGreaterThan(0);
    for (const v of all) {
      expect(v.repo).toMatch(/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/);
      expect(v.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(v.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(v.bytes).toBeGreaterThan(0);
      expect(v.path.length).toBeGreaterThan(0);
      // "none stated" is a valid answer; an empty one is not.
      expect(v.licence.trim().length).toBeGreaterThan(10);
      expect(v.content.trim().length).toBeGreaterThan(10);
    }
    expect(new Set(all.map((v) => v.name)).size).toBe(all.length);
  });

  // The clips are fetched from repository snapshots (`npm run fetch-public-faces`); where a clip is
  // on disk, it must be the pinned bytes: fetchPublicVideos refuses others, and nothing may replace them later.
  const present = all.filter((v) => existsSync(path.join(PUBLIC_VIDEOS_DATA_DIR, v.name)));
  it.skipIf(present.length === 0)(`the fetched clips hash as their manifest states (${present.length} of ${all.length} on disk)`, () => {
    for (const v of present) {
      const bytes = readFileSync(path.join(PUBLIC_VIDEOS_DATA_DIR, v.name));
      expect({ name: v.name, sha256: sha(bytes), bytes: bytes.length }).toEqual({ name: v.name, sha256: v.sha256, bytes: v.bytes });
    }
  });
});

describe('frame sequences of the unseen set (unseen-frames.json)', () => {
  const seqs = loadPublicFrameSequences();

  it('pins each sequence by repository, commit and digest, labels its kind, and keeps tuning and unseen subjects apart', () => {
    expect(seqs.length).toBeGreaterThan(0);
    for (const s of seqs) {
      expect(s.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(s.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(s.licence.length).toBeGreaterThan(10);
      expect(['genuine', 'print', 'screen_replay', 'deepfake']).toContain(s.kind);
      expect(['unseen', 'tuning']).toContain(s.part);
      expect(s.frames.length).toBeGreaterThanOrEqual(2);
      for (const f of s.frames) expect(f).toMatch(/^frame_\d{5}\.jpg$/);
      // The label follows the source's own name for the video, never the engine's output.
      expect(s.dir.includes('attack_print_')).toBe(s.kind === 'print');
      expect(s.dir.includes('__real__')).toBe(s.kind === 'genuine');
    }
    expect(new Set(seqs.map((s) => s.name)).size).toBe(seqs.length);
    const subjects = (part: string) => new Set(seqs.filter((s) => s.part === part).map((s) => s.subject));
    const tuning = subjects('tuning');
    for (const subject of subjects('unseen')) expect(tuning.has(subject), subject).toBe(false);
  });

  const present = seqs.filter((s) => s.frames.every((f) => existsSync(path.join(frameSequenceDir(s), f))));
  it.skipIf(present.length === 0)(`the fetched frames hash as their manifest states (${present.length} of ${seqs.length} on disk)`, () => {
    for (const s of present) {
      const digest = sequenceDigest(s.frames.map((file) => ({ file, bytes: readFileSync(path.join(frameSequenceDir(s), file)) })));
      expect({ name: s.name, digest }).toEqual({ name: s.name, digest: s.sha256 });
    }
    // A case's frames are stamped with their time in the original video (frame number / 25 fps).
    const s = present[0]!;
    const frames = frameSequenceFrames(`frames/${s.name}`, 0, 9.6);
    expect(frames.map((f) => f.timestampMs)).toEqual(s.frames.map((f) => Math.round((Number(/(\d+)\.jpg$/.exec(f)![1]) / s.source_fps) * 1000)).filter((t) => t < 9600));
  });

  it('one bench case per sequence: unseen ones in the unseen set (held out), tuning ones only in the tuning set', () => {
    const unseen = unseenSetCases().filter((c) => c.file.startsWith('frames/'));
    const tuning = unseenTuningCases();
    expect(unseen.map((c) => c.id).sort()).toEqual(seqs.filter((s) => s.part === 'unseen').map((s) => s.name).sort());
    expect(tuning.map((c) => c.id).sort()).toEqual(seqs.filter((s) => s.part === 'tuning').map((s) => s.name).sort());
    for (const c of unseen) expect(c.held_out).toBe(true);
    for (const c of tuning) expect(c.held_out).toBe(false);
    for (const c of [...unseen, ...tuning]) expect(c.kind).toBe(seqs.find((s) => s.name === c.id)!.kind);
  });
});

describe('public unseen set (bench/liveness-unseen.json)', () => {
  const cases = unseenSetCases().filter((c) => c.file.startsWith('public/'));
  const unseenClips = new Set(loadPublicVideos(['unseen-videos.json']).map((v) => v.name));

  it('every case is a labelled segment of an unseen-set clip, held out, with an attack kind the bench reports', () => {
    expect(cases.length).toBeGreaterThan(0);
    const ids = new Set([...labelledCases(), ...attackSetCases()].map((c) => c.id));
    for (const c of cases) {
      expect(ids.has(c.id), `${c.id} clashes with another set`).toBe(false);
      expect(['genuine', 'screen_replay', 'print', 'deepfake']).toContain(c.kind);
      expect(c.held_out).toBe(true);
      expect(c.file.startsWith('public/')).toBe(true);
      expect(unseenClips.has(c.file.slice('public/'.length)), `${c.id}: ${c.file} is not in unseen-videos.json`).toBe(true);
      expect(c.neutral_s).toBeGreaterThan(0);
      expect(c.steps.length).toBeGreaterThan(0);
      expect(new Set(c.steps.map((s) => s.step)).size).toBe(c.steps.length);
      for (const s of c.steps) {
        expect(s.motion_s[0]).toBeGreaterThanOrEqual(c.neutral_s);
        expect(s.motion_s[1]).toBeGreaterThan(s.motion_s[0]);
        expect(s.motion_s[1]).toBeLessThanOrEqual(c.duration_s);
      }
    }
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  it('each case gives a valid timed-script challenge whose slots follow its labelled motion', () => {
    for (const [n, c] of cases.entries()) {
      const ch = scriptedChallengeForClip(
        issueChallenge(seededRandom(7000 + n), LABELLED_NOW),
        Math.round(c.duration_s * 1000),
        Math.round(c.neutral_s * 1000),
        c.steps.map((s) => ({ step: s.step, startMs: s.motion_s[0] * 1000, endMs: s.motion_s[1] * 1000 })),
      );
      expect(ZLivenessChallenge.safeParse(ch).success, c.id).toBe(true);
      expect(ch.steps).toEqual(c.steps.map((s) => s.step));
      for (const [i, s] of c.steps.entries()) {
        const slot = ch.slots![i]!;
        // The labelled motion starts inside its slot (the engine allows 300 ms early, 800 ms late).
        expect(s.motion_s[0] * 1000).toBeGreaterThanOrEqual(slot.start_ms);
        expect(s.motion_s[0] * 1000).toBeLessThanOrEqual(slot.end_ms);
      }
    }
  });
});
