/**
 * The import rules (.dependency-cruiser.cjs, checked by scripts/check-architecture.mjs in `npm test`) catch
 * what they promise to, in .ts and .astro files alike: a tree of a few files breaks each rule once
 * (and has a function too long, which the same check fails on).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const project = new URL('../..', import.meta.url).pathname;

/** Runs the check over a tree of the given files; its exit code and output. */
async function check(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'architecture-rules-'));
  try {
    cpSync(join(project, '.dependency-cruiser.cjs'), join(root, '.dependency-cruiser.cjs'));
    symlinkSync(join(project, 'node_modules'), join(root, 'node_modules'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const run = promisify(execFile)(
      process.execPath,
      [join(project, 'scripts/check-architecture.mjs'), root],
      { cwd: project },
    );
    try {
      const { stdout } = await run;
      return { code: 0, output: stdout };
    } catch (error) {
      const failed = error as { code: number; stdout: string };
      return { code: failed.code, output: failed.stdout };
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('the import rules', () => {
  let violations: { code: number; output: string };

  beforeAll(async () => {
    violations = await check({
      'src/domain/rule.ts':
        "import { config } from '../server/config.ts';\nexport const rule = config;\n",
      'src/domain/clock.ts':
        "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
      'src/server/config.ts':
        "import { shown } from '../lib/shown.ts';\nexport const config = shown;\n",
      'src/lib/shown.ts': 'export const shown = 1;\n',
      'src/islands/Form.tsx':
        "import { config } from '../server/config.ts';\nexport default () => config;\n",
      'src/components/Times.astro':
        "---\nimport { config } from '../server/config.ts';\n---\n<p>{config}</p>\n",
      'src/server/store/index.ts':
        "import { sqlite } from './sqlite.ts';\nexport const open = sqlite;\n",
      'src/server/store/sqlite.ts':
        "import { open } from './index.ts';\nexport const sqlite = () => open;\n",
      // A floor of server/ reaching up: to a higher folder, to the front door, from the ground.
      'src/server/mail/outbox.ts':
        "import { hosts } from '../booking/hosts.ts';\nexport const outbox = hosts;\n",
      'src/server/booking/hosts.ts':
        "import { app } from '../app.ts';\nexport const hosts = app;\n",
      'src/server/app.ts': 'export const app = 1;\n',
      'src/server/log.ts':
        "import { outbox } from './mail/outbox.ts';\nexport const log = outbox;\n",
      // A function longer than the check allows (scripts/function-lengths.mjs).
      'src/server/long.ts': `export function long() {\n${'  void 0;\n'.repeat(80)}}\n`,
    });
  }, 60_000);

  it('fail the check, naming each import that breaks one', () => {
    expect(violations.code).not.toBe(0);
    const lines = violations.output;
    expect(lines).toMatch(
      /domain-imports-nothing-of-the-site: src\/domain\/rule\.ts → src\/server\/config\.ts/,
    );
    expect(lines).toMatch(/domain-uses-no-platform-api: src\/domain\/clock\.ts → (node:)?fs/);
    expect(lines).toMatch(
      /server-never-imports-the-site: src\/server\/config\.ts → src\/lib\/shown\.ts/,
    );
    expect(lines).toMatch(
      /browser-code-never-imports-the-server: src\/islands\/Form\.tsx → src\/server\/config\.ts/,
    );
    expect(lines).toMatch(
      /content-code-never-imports-the-server: src\/components\/Times\.astro → src\/server\/config\.ts/,
    );
    expect(lines).toMatch(/no-circular: src\/server\/store\/(index|sqlite)\.ts/);
    expect(lines).toMatch(
      /server-mail-imports-only-downward: src\/server\/mail\/outbox\.ts → src\/server\/booking\/hosts\.ts/,
    );
    expect(lines).toMatch(
      /server-booking-imports-only-downward: src\/server\/booking\/hosts\.ts → src\/server\/app\.ts/,
    );
    expect(lines).toMatch(
      /server-root-files-import-no-folder: src\/server\/log\.ts → src\/server\/mail\/outbox\.ts/,
    );
    expect(lines).toContain('src/server/long.ts:1 long: 82 lines, over 80');
  });

  it('pass a tree that keeps them', async () => {
    const kept = await check({
      'src/domain/rule.ts': 'export const rule = (text: string) => text.trim();\n',
      'src/server/config.ts':
        "import { rule } from '../domain/rule.ts';\nexport const config = rule;\n",
      'src/islands/Form.tsx':
        "import { rule } from '../domain/rule.ts';\nexport default () => rule;\n",
      'src/components/Times.astro':
        "---\nimport { rule } from '../domain/rule.ts';\n---\n<p>{rule}</p>\n",
      'src/server/mail/outbox.ts':
        "import { config } from '../config.ts';\nexport const outbox = config;\n",
      'src/server/booking/hosts.ts':
        "import { outbox } from '../mail/outbox.ts';\nexport const hosts = outbox;\n",
      'src/server/app.ts':
        "import { hosts } from './booking/hosts.ts';\nexport const app = hosts;\n",
    });
    expect(kept.output).toContain('hold');
    expect(kept.code).toBe(0);
  }, 60_000);
});
