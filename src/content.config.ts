/**
 * The content collections: where each one's files are, and its schema, made from its declaration
 * in src/content-model/ (every field is explained in content-schema.md, made from the same). A
 * wrong value fails `npm run build` with the file and the field named.
 */
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { parse as parseYaml } from 'yaml';
import { currentAssetNames } from './shared/asset-names';
import { serviceCategories } from './domain/content-rules';
import { contentModel } from './content-model';
import type { ListFileModel } from './content-model/collections';
import { siteSchema } from './content-model/zod';

export { serviceCategories };

/** Each collection's schema, made from its declaration in src/content-model/. */
const schemaOf = <Name extends keyof typeof contentModel>(name: Name) =>
  siteSchema(contentModel[name], { imageNames: currentAssetNames });

/** Where an entry kept aside in `astro dev` holds what is wrong with it (see `confinedInDev`). */
export const CONTENT_PROBLEMS = '__contentProblems';
/** One mistake of an entry: the field's path in its file ('stats.2.label') and the schema's message. */
export interface SchemaProblem {
  path: string;
  message: string;
}

/**
 * In `astro dev` (`npm run dev`, `npm run edit`), an entry the schema refuses is kept, with its
 * mistakes under CONTENT_PROBLEMS, instead of being refused: Astro would fail to start, or keep the
 * entry as it was before the mistake without a word (a page, a service page), or empty the whole
 * list (a list file's entries are one collection). The pages that show the entry then fail with its
 * mistakes in the editor's words (src/lib/content.ts); every other page renders. A build refuses it
 * as before.
 */
/** What zod hands a `catch`: the value it was given and what is wrong with it. */
interface CatchContext {
  value: unknown;
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

function confinedInDev<Collections extends Record<string, { schema?: unknown }>>(
  all: Collections,
): Collections {
  // Vite's hot-update API, which only the dev server's modules have: not import.meta.env.DEV, which
  // a build run with NODE_ENV=test (tests/build/) has too, and Vitest reading the schema itself.
  if (!import.meta.hot) return all;
  // A `catch`, not a transform: the JSON schemas Astro writes for the list files stay the schema's.
  const confine = (schema: z.ZodType) =>
    schema.catch((context: CatchContext) => ({
      ...(isRecord(context.value) ? context.value : {}),
      // `error.issues`, not `issues`: these have their messages.
      [CONTENT_PROBLEMS]: context.error.issues.map((issue) => ({
        path: issue.path.map(String).join('.'),
        // Astro's own wording puts the path first, in Markdown ("**title**: Expected type
        // `"string"` …"): the path is said already, in the editor's words.
        message: issue.message.replace(/^\*\*[^*]*\*\*: /, '').replaceAll('`', ''),
      })),
    }));
  return Object.fromEntries(
    Object.entries(all).map(([name, collection]) => [
      name,
      { ...collection, schema: confine(collection.schema as z.ZodType) },
    ]),
  ) as Collections;
}

/**
 * A YAML list file: its entries under `entries:` (an object at the root, as the visual editor
 * writes it). The site shows them in the order of the file (src/lib/content.ts).
 */
const listFile = <Name extends keyof typeof contentModel>(name: Name) => {
  const model = contentModel[name] as ListFileModel;
  return defineCollection({
    loader: file(`./${model.file}`, {
      parser: (text) => (parseYaml(text) as { entries: Record<string, unknown>[] }).entries,
    }),
    schema: schemaOf(name),
  });
};

const services = defineCollection({
  // Keyed by file name (laravel.mdx: 'laravel'), not by the glob loader's default, the `slug` field:
  // two files of one slug (a page duplicated in the editor) would be one entry, the other dropped
  // with a warning at most. Both reach lib/content-checks.ts, which fails the build naming both files.
  // Pages use `data.slug` for their address, never the id.
  loader: glob({
    base: `./${contentModel.services.folder}`,
    pattern: '*.mdx',
    generateId: ({ entry }) => entry.replace(/\.mdx$/, ''),
  }),
  schema: schemaOf('services'),
});

/**
 * Old addresses answered with a 301 to their new one (src/pages/[...redirect].astro). An entry has no
 * id of its own: its old address is its id. Two entries of one old address keep both (the second
 * as "/old (2)"), so that the build's check names the second (src/lib/content-checks.ts) rather
 * than the loader keeping one in silence. An empty list (`entries: []`) is the usual case.
 */
const redirects = defineCollection({
  loader: file(`./${contentModel.redirects.file}`, {
    parser: (text) => {
      const entries = (parseYaml(text) as { entries?: unknown } | null)?.entries;
      const byFrom: Record<string, Record<string, unknown>> = {};
      for (const entry of (Array.isArray(entries) ? entries : []) as Record<string, unknown>[]) {
        const from = String(entry?.from ?? '');
        let id = from;
        for (let n = 2; id in byFrom; n++) id = `${from} (${n})`;
        byFrom[id] = entry;
      }
      return byFrom;
    },
  }),
  schema: schemaOf('redirects'),
});

/** Copy of the pages that are not service pages, one YAML file each. */
const pages = defineCollection({
  loader: glob({ base: `./${contentModel.pages.folder}`, pattern: '*.yaml' }),
  schema: schemaOf('pages'),
});

export const collections = confinedInDev({
  services,
  testimonials: listFile('testimonials'),
  portfolio: listFile('portfolio'),
  homePortfolio: listFile('homePortfolio'),
  feedback: listFile('feedback'),
  pricing: listFile('pricing'),
  enquiryServices: listFile('enquiryServices'),
  technologies: listFile('technologies'),
  settings: listFile('settings'),
  availability: listFile('availability'),
  pages,
  redirects,
});
