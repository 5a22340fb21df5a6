import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { ARCHITECTURE, importDirection, judgeImport } from './lint-rules.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const at = (rel: string) => path.join(process.cwd(), rel);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' } });

describe('arch/import-direction', () => {
  tester.run('import-direction', importDirection as never, {
    valid: [
      { filename: at('workflows/case-workflow.ts'), code: "import { proxyActivities } from '@temporalio/workflow'; import { x } from '../domain/checks.js';" },
      { filename: at('workflows/case-workflow.ts'), code: "import type { CaseActivities } from '../activities/index.js';" },
      { filename: at('workflows/case-workflow.ts'), code: "import { type CaseActivities } from '../activities/index.js';" },
      { filename: at('domain/policy.ts'), code: "import { z } from 'zod'; import { ids } from './ids.js';" },
      { filename: at('api/routes/account.ts'), code: "import { rotateApiKey } from '../../services/api-keys.js'; import type { IProject } from '../../db/entities/index.js';" },
      { filename: at('api/routes/x.ts'), code: "type E = import('../../db/entities/index.js').IProject;" },
      { filename: at('api/server.ts'), code: "import { createOrm } from '../db/orm.js';" },
      { filename: at('api/server.ts'), code: "import { createCaptureAdvisor } from '../engine/capture-advice.js';" },
      { filename: at('engine/document/index.ts'), code: "import sharp from 'sharp'; import { REPO_ROOT } from '../../platform/paths.js'; import { c } from '../../domain/countries.js';" },
      { filename: at('db/orm.ts'), code: "import { MikroORM } from '@mikro-orm/postgresql'; import { MIGRATIONS } from '../migrations/index.js';" },
      { filename: at('tools/authenticity/attacks.ts'), code: "import { x } from '../../engine/authenticity/index.js';" },
      { filename: at('engine/authenticity/engine.test.ts'), code: "import { x } from '../../tools/authenticity/attacks.js';" },
      { filename: at('test/helpers.ts'), code: "import { anything } from '../engine/assets.js'; import { y } from '../tools/x.js';" },
      { filename: at('sdk/webhook-verify.ts'), code: "import { createHmac } from 'node:crypto';" },
    ],
    invalid: [
      { filename: at('workflows/case-workflow.ts'), code: "import { createActivities } from '../activities/index.js';", errors: [{ message: /types only/ }] },
      { filename: at('workflows/case-workflow.ts'), code: "import { readFileSync } from 'node:fs';", errors: [{ message: /may not import the package "node:fs"/ }] },
      { filename: at('workflows/case-workflow.ts'), code: "import { Verification } from '../db/entities/index.js';", errors: [{ message: /workflows\/ may not import db\// }] },
      { filename: at('domain/policy.ts'), code: "import { EntityManager } from '@mikro-orm/postgresql';", errors: [{ message: /may not import the package "@mikro-orm\/postgresql"/ }] },
      { filename: at('domain/policy.ts'), code: "import path from 'path';", errors: [{ message: /"path"/ }] },
      { filename: at('api/routes/capture.ts'), code: "import { REPO_ROOT } from '../../engine/assets.js';", errors: [{ message: /api\/ may not import engine\// }] },
      { filename: at('api/routes/capture.ts'), code: "import { adviseCapture } from '../../engine/document/advice.js';", errors: [{ message: /api\/ may not import engine\// }] },
      { filename: at('services/capture.ts'), code: "import { createCaptureAdvisor } from '../engine/capture-advice.js';", errors: [{ message: /services\/ may not import engine\// }] },
      { filename: at('api/routes/account.ts'), code: "import { ApiKey } from '../../db/entities/index.js';", errors: [{ message: /types only/ }] },
      { filename: at('platform/stack.ts'), code: "import { createOrm } from '../db/orm.js';", errors: [{ message: /platform\/ may not import db\// }] },
      { filename: at('engine/faces/index.ts'), code: "import { makeAttack } from '../../tools/faces/attacks.js';", errors: [{ message: /engine\/ may not import tools\// }] },
      { filename: at('engine/faces/index.ts'), code: "const m = await import('../../tools/faces/attacks.js');", errors: [{ message: /engine\/ may not import tools\// }] },
      { filename: at('engine/faces/index.ts'), code: "import { loadConfig } from '../../platform/config.js';", errors: [{ message: /engine\/ may not import platform\// }] },
      { filename: at('services/projects.ts'), code: "export { x } from '../api/app.js';", errors: [{ message: /services\/ may not import api\// }] },
      { filename: at('hosted/pages.ts'), code: "import { Project } from '../db/entities/index.js';", errors: [{ message: /hosted\/ may not import db\// }] },
      { filename: at('sdk/webhook-verify.ts'), code: "import { z } from 'zod';", errors: [{ message: /"zod"/ }] },
    ],
  });
});

describe('the folder table', () => {
  it('no runtime folder may import tools/, test/, bench/ or scripts/', () => {
    for (const [name, layer] of Object.entries(ARCHITECTURE)) {
      if (['tools', 'test', 'bench', 'scripts'].includes(name)) continue;
      for (const offline of ['tools/x.ts', 'test/x.ts', 'bench/x.ts', 'scripts/x.ts']) {
        expect(judgeImport(`${name}/file.ts`, `../${offline}`, false).ok, `${name} → ${offline}`).toBe(false);
      }
      expect(layer.folders).not.toContain('*');
    }
  });

  it('ARCHITECTURE.md lists, for every folder, exactly the folders the rule allows', () => {
    const md = readFileSync(path.join(process.cwd(), 'ARCHITECTURE.md'), 'utf8');
    const rows = new Map<string, string>();
    for (const line of md.split('\n')) {
      const m = /^\| `([a-z]+)\/` \|.*\| (.*) \|$/.exec(line);
      if (m) rows.set(m[1]!, m[2]!);
    }
    expect([...rows.keys()].sort()).toEqual(Object.keys(ARCHITECTURE).sort());
    for (const [name, layer] of Object.entries(ARCHITECTURE)) {
      const cell = rows.get(name)!;
      if (layer.folders.includes('*')) {
        expect(cell, name).toMatch(/anything/);
        continue;
      }
      const listed = [...cell.matchAll(/`([a-z-]+\/(?:[a-z-]+\.ts)?)`( \(types\))?/g)].map((m) => (m[2] ? `${m[1]} (types)` : m[1]!)).sort();
      const enforced = [...layer.folders.filter((f) => f !== `${name}/`), ...(layer.typeOnly ?? []).map((f) => `${f} (types)`)].sort();
      expect(listed, `ARCHITECTURE.md row ${name}/`).toEqual(enforced);
    }
  });
});
