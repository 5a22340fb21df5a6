import { readFile } from 'node:fs/promises';
import { summarize } from '../../domain/checks.js';
import { CURRENT_ENGINE_PROFILE } from '../../domain/engine-profile.js';
import { engineProfile } from '../profiles.js';
import { createDocumentEngine, DOCUMENT_SETTINGS_BY_NAME, type DocumentEngineSettings, type DocumentType } from './index.js';

const USAGE = `usage: npm run engine -- document [--settings ${Object.keys(DOCUMENT_SETTINGS_BY_NAME).join('|')}] [--country MEX] [--type national_id] [--back <image>] [--now YYYY-MM-DD] [--evidence] <image>...`;

/**
 * `npm run engine -- document <image>...`: one JSON line per image. Without `--country`/`--type`
 * the document is taken as what its MRZ says (a first pass reads it as a passport of its state).
 */
export async function main(argv: string[]): Promise<void> {
  const files: string[] = [];
  // `--settings vN`: a released settings version; by default the one new Cases get (the current profile's).
  let settings: DocumentEngineSettings | undefined = engineProfile(CURRENT_ENGINE_PROFILE).document;
  let country: string | undefined, type: DocumentType | undefined, back: string | undefined, now = new Date(), evidence = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--settings') {
      settings = DOCUMENT_SETTINGS_BY_NAME[argv[++i] ?? ''];
      if (!settings) { process.stderr.write(`--settings must be one of ${Object.keys(DOCUMENT_SETTINGS_BY_NAME).join(', ')}\n`); process.exitCode = 2; return; }
    } else if (a === '--country') country = argv[++i]!.toUpperCase();
    else if (a === '--type') type = argv[++i] as DocumentType;
    else if (a === '--back') back = argv[++i];
    else if (a === '--now') now = new Date(`${argv[++i]}T00:00:00Z`);
    else if (a === '--evidence') evidence = true;
    else if (a === '--help' || a === '-h') { process.stdout.write(`${USAGE}\n`); return; }
    else files.push(a);
  }
  if (!files.length) { process.stderr.write(`${USAGE}\n`); process.exitCode = 2; return; }
  const engine = await createDocumentEngine(settings);
  try {
    for (const file of files) {
      try {
        const front = await readFile(file);
        const backBytes = back ? await readFile(back) : undefined;
        let declared = { country: country ?? 'UTO', type: type ?? ('passport' as DocumentType) };
        let res = await engine.analyze({ front, back: backBytes, declared, accepted: [{ country: declared.country, types: [declared.type] }], now });
        // Undeclared: read once, then re-run as the document the MRZ names.
        if (!country && res.extracted.issuing_state) {
          const state = String(res.extracted.issuing_state).replace(/<+$/, '');
          const code = String(res.extracted.document_code ?? 'P');
          declared = { country: state, type: type ?? (code.startsWith('P') ? 'passport' : 'national_id') };
          res = await engine.analyze({ front, back: backBytes, declared, accepted: [{ country: declared.country, types: [declared.type] }], now });
        }
        const ev = res.ocr.evidence as { mrz?: { format: string; lines: string[]; valid: boolean } | null };
        process.stdout.write(JSON.stringify({
          file, declared, tier: res.tier,
          mrz: ev.mrz ? { format: ev.mrz.format, lines: ev.mrz.lines, valid: ev.mrz.valid } : { format: null, lines: [], valid: false },
          fields: res.extracted,
          checks: { document_ocr: summarize(res.ocr), template_match: summarize(res.template) },
          portrait: res.portrait ?? null,
          ...(evidence ? { evidence: { ocr: res.ocr.evidence, template: res.template.evidence } } : {}),
        }) + '\n');
      } catch (err) {
        process.stdout.write(JSON.stringify({ file, error: (err as { code?: string }).code ?? 'internal_error', message: (err as Error).message }) + '\n');
      }
    }
  } finally {
    await engine.close();
  }
}
