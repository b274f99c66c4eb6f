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
      // The build and the editor reaching into the server; shared/ reaching up or into Astro.
      'src/integrations/worker.ts':
        "import { config } from '../server/config.ts';\nexport const worker = config;\n",
      'src/editor/dev-server/route.ts':
        "import { config } from '../../server/config.ts';\nexport const route = config;\n",
      'src/shared/names.ts':
        "import { shown } from '../lib/shown.ts';\nexport const names = shown;\n",
      'src/shared/entries.ts':
        "import { getCollection } from 'astro:content';\nexport const entries = getCollection;\n",
      // The editor's dev server, imported by its browser code and by the site.
      'src/editor/browser/tab.ts':
        "import { route } from '../dev-server/route.ts';\nexport const tab = route;\n",
      'src/middleware.ts':
        "import { route } from './editor/dev-server/route.ts';\nexport const onRequest = route;\n",
      // The content schema reaching up to what reads the content.
      'src/content.config.ts':
        "import { shown } from './lib/shown.ts';\nimport { flagged } from './editor/problems.ts';\nexport const collections = [shown, flagged];\n",
      // The content model reaching into the editor, and the site's schema loading the editor.
      'src/content-model/services.ts':
        "import { flagged } from '../editor/problems.ts';\nexport const services = flagged;\n",
      'src/editor/problems.ts': 'export const flagged = 1;\n',
      // What pages read content with, loading the editor (to name a mistake's place, as it once did).
      'src/lib/places.ts':
        "const place = async () => (await import('../editor/problems.ts')).flagged;\nexport { place };\n",
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
    expect(lines).toMatch(
      /build-code-never-imports-the-server: src\/integrations\/worker\.ts → src\/server\/config\.ts/,
    );
    expect(lines).toMatch(
      /build-code-never-imports-the-server: src\/editor\/dev-server\/route\.ts → src\/server\/config\.ts/,
    );
    expect(lines).toMatch(
      /shared-stands-on-domain-only: src\/shared\/names\.ts → src\/lib\/shown\.ts/,
    );
    expect(lines).toMatch(/shared-uses-no-astro-module: src\/shared\/entries\.ts → astro:content/);
    expect(lines).toMatch(
      /only-the-editor-imports-its-dev-server: src\/editor\/browser\/tab\.ts → src\/editor\/dev-server\/route\.ts/,
    );
    expect(lines).toMatch(
      /only-the-editor-imports-its-dev-server: src\/middleware\.ts → src\/editor\/dev-server\/route\.ts/,
    );
    expect(lines).toMatch(
      /content-schema-imports-no-site-code: src\/content\.config\.ts → src\/lib\/shown\.ts/,
    );
    expect(lines).toMatch(
      /content-model-stands-on-the-domain-alone: src\/content-model\/services\.ts → src\/editor\/problems\.ts/,
    );
    expect(lines).toMatch(
      /the-build-never-loads-the-editor: src\/content\.config\.ts → src\/editor\/problems\.ts/,
    );
    expect(lines).toMatch(
      /the-build-never-loads-the-editor: src\/lib\/places\.ts → src\/editor\/problems\.ts/,
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
      // What the build, the editor and the server share, below them all.
      'src/shared/read.ts':
        "import { rule } from '../domain/rule.ts';\nexport const read = rule;\n",
      'src/server/requests/body.ts':
        "import { read } from '../../shared/read.ts';\nexport const body = read;\n",
      'src/integrations/worker.ts':
        "import { read } from '../shared/read.ts';\nexport const worker = read;\n",
      'src/content.config.ts':
        "import { read } from './shared/read.ts';\nimport { services } from './content-model/services.ts';\nexport const collections = [read, services];\n",
      // The editor's halves meet in the names they share; the site knows only its routes.
      'src/editor/events.ts': "export const SAVED = 'editor:saved';\n",
      'src/editor/routes.ts': "export const EDITOR_ROUTES = new Set(['/keystatic']);\n",
      'src/editor/dev-server/editor.ts':
        "import { SAVED } from '../events.ts';\nimport { read } from '../../shared/read.ts';\nexport const editor = [SAVED, read];\n",
      'src/editor/browser/tab.ts':
        "import { SAVED } from '../events.ts';\nexport const tab = SAVED;\n",
      'src/middleware.ts':
        "import { EDITOR_ROUTES } from './editor/routes.ts';\nexport const onRequest = EDITOR_ROUTES;\n",
      'src/content-model/services.ts':
        "import { rule } from '../domain/rule.ts';\nexport const services = rule;\n",
      'src/editor/schema.ts':
        "import { services } from '../content-model/services.ts';\nexport default services;\n",
    });
    expect(kept.output).toContain('hold');
    expect(kept.code).toBe(0);
  }, 60_000);
});
