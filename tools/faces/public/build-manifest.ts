import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { MIRROR_DIR } from './fetch.js';
import { PUBLIC_FACES_DIR, type PublicFace, type PublicFaceRepo } from './sources.js';

/**
 * Builds `sources.json`. Run once where the GitHub snapshots are present (the `fetch` tool puts
 * them under /work/.mirror/<owner>+<name>/repo, or set FACES_MIRROR_DIR).
 *
 * Selection (fixed before any similarity was computed):
 * - LFW, from the benchmark's own site repository (`images/`, the original 250 × 250 crops): every
 *   person with at least two photos, at most four photos each — the four whose sha256 sort first,
 *   so the choice does not follow image quality or file order. 1680 people, 4871 photos.
 * - Microsoft's Face API sample photos (`Face/images/Family*`): 8 people of 3 families, 16 photos,
 *   relatives among them (hard impostors). The `*-person-group` files are the same people under
 *   other names and are left out, as are group and detection photos of unnamed people.
 */
const SOURCES: { repo: string; set: PublicFaceRepo['set']; licence: string; select: (paths: string[]) => { path: string; identity: string }[] }[] = [
  {
    repo: 'umass-vis-lfw/umass-vis-lfw.github.io',
    set: 'lfw',
    licence:
      'none stated: Labeled Faces in the Wild (UMass Amherst), news photos collected from the web, published as a research benchmark; the photographers\' and subjects\' rights are not cleared. Used here for evaluation only, never committed or redistributed.',
    select: (paths) => {
      const byPerson = new Map<string, string[]>();
      for (const p of paths) {
        const m = /^images\/([^/]+)\/[^/]+\.jpg$/.exec(p);
        if (m) byPerson.set(m[1]!, [...(byPerson.get(m[1]!) ?? []), p]);
      }
      return [...byPerson].filter(([, ps]) => ps.length >= 2).flatMap(([identity, ps]) => ps.map((p) => ({ path: p, identity })));
    },
  },
  {
    repo: 'Azure-Samples/cognitive-services-sample-data-files',
    set: 'azure-face',
    licence: 'MIT (repository LICENSE.md, Microsoft Corporation); stock photos of models',
    select: (paths) =>
      paths.flatMap((p) => {
        const m = /^Face\/images\/(Family\d-[A-Za-z]+)\d\.jpg$/.exec(p);
        return m ? [{ path: p, identity: m[1]! }] : [];
      }),
  },
];

const PER_IDENTITY = 4;

function git(gitDir: string, args: string[]): Buffer {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 1 << 28 });
}

function main() {
  const out: PublicFace[] = [];
  const repos: PublicFaceRepo[] = [];
  for (const s of SOURCES) {
    const gitDir = path.join(MIRROR_DIR, s.repo.replace('/', '+'), 'repo');
    const commit = git(gitDir, ['rev-parse', 'HEAD']).toString().trim();
    repos.push({ set: s.set, repo: s.repo, commit, licence: s.licence });
    const listing = git(gitDir, ['ls-tree', '-r', '--name-only', '-z', 'HEAD']).toString().split('\0').filter(Boolean);
    const chosen = new Map<string, PublicFace[]>();
    for (const { path: p, identity } of s.select(listing)) {
      const bytes = git(gitDir, ['show', `${commit}:${p}`]);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const face: PublicFace = { id: `${s.set}-${sha256.slice(0, 12)}`, set: s.set, identity, path: p, sha256, bytes: bytes.length };
      chosen.set(identity, [...(chosen.get(identity) ?? []), face]);
    }
    for (const faces of chosen.values()) {
      // Byte-identical duplicates (LFW has a few) would be perfect "genuine" pairs: keep one.
      const unique = [...new Map(faces.map((f) => [f.sha256, f])).values()].sort((a, b) => a.sha256.localeCompare(b.sha256));
      if (unique.length >= 2) out.push(...unique.slice(0, PER_IDENTITY));
    }
  }
  out.sort((a, b) => a.set.localeCompare(b.set) || a.identity.localeCompare(b.identity) || a.path.localeCompare(b.path));
  // One photo a line: the manifest stays reviewable in a diff.
  const json = `{\n"repos": ${JSON.stringify(repos, null, 1)},\n"photos": [\n${out.map((f) => JSON.stringify(f)).join(',\n')}\n]}\n`;
  writeFileSync(path.join(PUBLIC_FACES_DIR, 'sources.json'), json);
  const ids = new Set(out.map((f) => `${f.set}/${f.identity}`));
  console.log(JSON.stringify({ photos: out.length, identities: ids.size }));
}

main();
