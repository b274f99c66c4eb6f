// `npm run docs:content`: writes the field reference of content-schema.md, a list of fields for each
// collection between its markers, from the content model (src/content-model/reference.ts), and
// formats the file as `npm run format` would. The prose around the lists is kept as written.
// `-- --check` only says whether the file is current (exit 1 if not); `npm test` checks it too
// (tests/unit/content-docs.test.ts, with `currentReference`).
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { withReference } from '../src/content-model/reference.ts';
import { scriptArgs } from './script-args.mjs';

export const docFile = 'content-schema.md';

/** The document with its field reference as the model makes it, formatted as the project formats it. */
export async function currentReference(text) {
  return format(withReference(text), { ...(await resolveConfig(docFile)), filepath: docFile });
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const { values } = scriptArgs(import.meta.url, {
    options: { check: { type: 'boolean', default: false } },
  });
  const text = readFileSync(docFile, 'utf8');
  const written = await currentReference(text);
  if (written === text) console.log(`${docFile}: its field reference is the content model's.`);
  else if (values.check) {
    console.log(
      `${docFile}: its field reference is not the content model's: run npm run docs:content`,
    );
    process.exitCode = 1;
  } else {
    writeFileSync(docFile, written);
    console.log(`${docFile}: field reference written from src/content-model/.`);
  }
}
