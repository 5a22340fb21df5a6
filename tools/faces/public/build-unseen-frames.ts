import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { frameFileName, MIRROR_DIR, readBlobs, sequenceDigest, type FrameSequenceManifest, type PublicFrameSequence } from './fetch.js';
import { PUBLIC_FACES_DIR } from './sources.js';

/**
 * Builds `unseen-frames.json`: frame sequences of the public unseen liveness set that exist only as
 * extracted frames. Run once where the snapshot is present (`fetch` tool, or FACES_MIRROR_DIR).
 *
 * Source: sejong-sas/replay-attack, `frames/replay_attack/<split>/<video>/frame_NNNNN.jpg` — 20
 * frames of each video of the Idiap Replay-Attack database (320 × 240, every 12.5th frame of the
 * 25-fps original, so 2 fps over 9.6 s); the videos themselves are Git LFS pointers there.
 *
 * Selection, fixed before any engine ran on a frame (by split and attack type only, never by content):
 * - `unseen` (measured, never tuned on): the database's own `test` split, all 20 clients — every
 *   printed-photo attack (hand-held and fixed), every real access, and every hand-held video replay
 *   (high-definition tablet and phone);
 * - `tuning` (the only part a new cue may be fitted on): the `train` split, 15 clients — every
 *   printed-photo attack and every real access.
 * The database's `devel` split is left out entirely.
 */
const REPO = 'sejong-sas/replay-attack';
const LICENCE =
  'none stated by the repository (no licence file). The frames are extracted from the Idiap Replay-Attack database (research use under the database owner\'s end-user licence, which forbids redistribution); this copy does not carry that licence. Evaluation only, never committed or redistributed.';

const GIT_DIR = path.join(MIRROR_DIR, REPO.replace('/', '+'), 'repo');

function git(args: string[]): Buffer {
  return execFileSync('git', ['--git-dir', GIT_DIR, ...args], { maxBuffer: 1 << 28 });
}

function classify(dir: string): { part: 'unseen' | 'tuning'; kind: PublicFrameSequence['kind']; what: string } | null {
  const m = /^frames\/replay_attack\/(train|devel|test)\/[a-z]+__(real|attack)__(real|fixed|hand)__(.+)$/.exec(dir);
  if (!m) return null;
  const [, split, , support, video] = m as unknown as [string, string, string, string, string];
  const part = split === 'test' ? 'unseen' : split === 'train' ? 'tuning' : null;
  if (!part) return null;
  const light = video.includes('adverse') ? 'adverse light (office, daylight)' : 'controlled light (plain wall, lamps)';
  if (video.startsWith('attack_print_')) {
    return { part, kind: 'print', what: `printed photo (high-resolution photo printed on paper) ${support === 'hand' ? 'held by hand (moves slightly)' : 'on a fixed stand'} in front of the camera, ${light}` };
  }
  if (support === 'real') return { part, kind: 'genuine', what: `genuine: the person sits in front of the laptop webcam and looks at it (no challenge; small natural movement), ${light}` };
  if (part === 'unseen' && support === 'hand' && /_(highdef|mobile)_video_/.test(video)) {
    const device = video.includes('highdef') ? 'a tablet (high-definition video)' : 'a phone (mobile video)';
    return { part, kind: 'screen_replay', what: `screen replay: a video of the person played on ${device} held by hand in front of the camera, ${light}` };
  }
  return null;
}

function main() {
  const commit = git(['rev-parse', 'HEAD']).toString().trim();
  const listing = git(['ls-tree', '-r', '--name-only', '-z', 'HEAD', 'frames/replay_attack']).toString().split('\0').filter(Boolean);
  const byDir = new Map<string, string[]>();
  for (const p of listing) {
    const m = /^(.+)\/(frame_\d{5}\.jpg)$/.exec(p);
    if (m) byDir.set(m[1]!, [...(byDir.get(m[1]!) ?? []), m[2]!]);
  }
  const out: FrameSequenceManifest['sequences'] = [];
  for (const [dir, files] of [...byDir].sort(([a], [b]) => a.localeCompare(b))) {
    const c = classify(dir);
    if (!c) continue;
    const names = files.sort();
    const blobs = readBlobs(GIT_DIR, names.map((f) => `${commit}:${dir}/${f}`));
    if (blobs.some((b) => !b)) throw new Error(`${dir}: a frame is missing from the snapshot`);
    const frames = names.map((file, i) => ({ file, bytes: blobs[i]! }));
    const client = /client(\d{3})/.exec(dir)![1]!;
    out.push({
      name: `ra_${c.part}_${c.kind}_${path.basename(dir).replace(/^[a-z]+__(real|attack)__(real|fixed|hand)__/, '$2_').replace('_session01', '')}`,
      dir,
      frames: names.map((f) => Number(/^frame_(\d{5})\.jpg$/.exec(f)![1])),
      sha256: sequenceDigest(frames),
      part: c.part,
      kind: c.kind,
      subject: `replay-attack client ${client}`,
      content: `${c.what}; 20 frames (320 × 240) at 2 fps over 9.6 s`,
    });
    if (names.some((f, i) => frameFileName(out.at(-1)!.frames[i]!) !== f)) throw new Error(`${dir}: unexpected frame names`);
  }
  const head: Omit<FrameSequenceManifest, 'sequences'> = {
    about: 'Frame sequences of the public unseen liveness set (bench/liveness-unseen.json; built by tools/faces/public/build-unseen-frames.ts, fetched by npm run fetch-public-faces). part unseen = the Replay-Attack test split (measured, never tuned on); part tuning = its train split (the only part a new cue may be fitted on). sha256 = sequenceDigest of the frames (fetch.ts).',
    repo: REPO,
    commit,
    licence: LICENCE,
    source_fps: 25,
  };
  // One sequence a line: the manifest stays reviewable in a diff.
  const json = JSON.stringify(head, null, 1).replace(/\n}$/, '');
  writeFileSync(path.join(PUBLIC_FACES_DIR, 'unseen-frames.json'), `${json},\n "sequences": [\n${out.map((s) => JSON.stringify(s)).join(',\n')}\n]}\n`);
  const count = (part: string, kind: string) => out.filter((s) => s.part === part && s.kind === kind).length;
  console.log(JSON.stringify({ sequences: out.length, unseen: { print: count('unseen', 'print'), genuine: count('unseen', 'genuine'), screen_replay: count('unseen', 'screen_replay') }, tuning: { print: count('tuning', 'print'), genuine: count('tuning', 'genuine') } }));
}

main();
