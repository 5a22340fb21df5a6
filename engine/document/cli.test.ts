import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CURRENT_ENGINE_PROFILE } from '../../domain/engine-profile.js';
import { REAL_DOCUMENTS, realMrzTruth } from '../../test/real-documents.js';
import { engineProfile } from '../profiles.js';
import { main } from './cli.js';

/** `npm run engine -- document`: the settings new Cases get unless a released version is named. */
const UK = 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg';

describe('document CLI', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
    await main(argv);
    vi.restoreAllMocks();
    return { out: out.join(''), err: err.join('') };
  };

  it('an unknown settings version is refused with the released names, exit code 2, nothing read', async () => {
    const { out, err } = await run(['--settings', 'v99', 'x.jpg']);
    expect(out).toBe('');
    expect(err).toContain('--settings must be one of v2,');
    expect(err).toContain('v16');
    expect(process.exitCode).toBe(2);
  });

  it('by default reads with the current profile: a real passport photo, its MRZ valid and exact, stamped with the profile version; a named version runs that version', async () => {
    const { out } = await run(['--evidence', path.join(REAL_DOCUMENTS, UK)]);
    const row = JSON.parse(out.trim()) as { mrz: { lines: string[]; valid: boolean }; checks: { document_ocr: { component: string } } };
    expect(row.mrz.valid).toBe(true);
    expect(row.mrz.lines).toEqual(realMrzTruth(UK));
    expect(row.checks.document_ocr.component).toBe(engineProfile(CURRENT_ENGINE_PROFILE).document.version);
    const named = await run(['--settings', 'v13', path.join(REAL_DOCUMENTS, UK)]);
    expect((JSON.parse(named.out.trim()) as { checks: { document_ocr: { component: string } } }).checks.document_ocr.component).toBe('document-engine@3.1.0');
  }, 120_000);
});
