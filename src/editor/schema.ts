/**
 * The visual editor's schema (Keystatic, local mode), made from the content model
 * (src/content-model/): every collection and list file of the site, each field by its kind
 * (./fields/), so that the editor refuses, next to the field, what `npm run build` would refuse.
 * Here is only what the editor alone knows: the project's pictures, pages and group names as they
 * are when it opens, where each entry is previewed, and the navigation.
 *
 * The YAML list files (src/content/data/*.yaml) are singletons with one list field, `entries`.
 */
import { collection, config, fields, singleton, type ComponentSchema } from '@keystatic/core';
import { contentModel, type ContentModel } from '../content-model/index.ts';
import { pictureAddress, pictureName, type AssetFolder } from '../domain/images.ts';
import type { FolderModel, ListFileModel } from '../content-model/collections.ts';
import { entryId } from '../content-model/shared.ts';
import type { CheckedField } from '../content-model/fields.ts';
import { editorField, editorFields, rowLabel, type EditorContext } from './fields/index.ts';
import { redirectAddressField } from './fields/redirect/index.tsx';
import { named } from './site.ts';

/**
 * A folder's pictures by the name content gives them (no extension), with where the editor shows
 * each. Only the files' paths are read (`Object.keys` of a glob that imports nothing, whose imports
 * the build drops): imported as addresses (`?url`), each picture was a module of its own in `astro
 * dev`, some 120 requests: an eighth to a fifth of the work of each load of the editor.
 */
const pictures = (folder: AssetFolder, paths: string[]) =>
  Object.fromEntries(
    paths
      .map((path) => path.replace(/^.*\//, ''))
      .map(
        (file) => [pictureName(file), pictureAddress(folder, file, import.meta.env.DEV)] as const,
      )
      .sort(([a], [b]) => a.localeCompare(b)),
  );
// Each glob's pattern is written out: Vite reads it from the source.
const assets = {
  icons: pictures('icons', Object.keys(import.meta.glob('/src/assets/icons/*.svg'))),
  illustrations: pictures(
    'illustrations',
    Object.keys(import.meta.glob('/src/assets/illustrations/*.{svg,png,jpg,jpeg,webp}')),
  ),
  portfolio: pictures(
    'portfolio',
    Object.keys(import.meta.glob('/src/assets/portfolio/*.{svg,png,jpg,jpeg,webp}')),
  ),
  logos: pictures(
    'logos',
    Object.keys(import.meta.glob('/src/assets/logos/*.{svg,png,jpg,jpeg,webp}')),
  ),
};

/** The site's own pages' addresses (/about, /contact, …), which no service page may take. */
const fixedAddresses = new Set(
  Object.keys(import.meta.glob('/src/pages/*.{astro,ts}'))
    .map((file) => file.replace(/^.*\//, '').replace(/\.[^.]+$/, ''))
    .filter((name) => !name.startsWith('[')),
);
/**
 * Each service group by its heading on the /service page (the sections of its page copy), as a
 * marketer knows it: "Mobile, native" rather than "mobile-native".
 */
const serviceCopy = Object.values(
  import.meta.glob<string>('/src/content/pages/service.yaml', {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
).join('');
const groupHeading = (category: string) =>
  new RegExp(`- id: ${category}\\n\\s+title: (.+)`).exec(serviceCopy)?.[1] ?? category;

const context: EditorContext = {
  pictures: assets,
  optionNames: { service: groupHeading },
  pageAddresses: {
    taken: (address) =>
      fixedAddresses.has(address)
        ? `/${address} is one of the site's own pages: choose another address`
        : undefined,
    existing: Object.keys(import.meta.glob('/src/content/services/*.mdx')).map((file) =>
      file.replace(/^.*\//, '').replace(/\.mdx$/, ''),
    ),
  },
};

/** A folder's entries: the field that names each is its file's name (a page address), or `name`. */
function folderCollection(model: FolderModel, previewUrl: string) {
  const own = editorFields(model.fields, context);
  const keyOf = (kind: string) =>
    Object.keys(model.fields).find((key) => model.fields[key]!.kind === kind);
  // The file's name, not a key of the file: a text field used as the slug field writes nothing
  // into the file (a `fields.slug` would write `name: ''`, which the site's strict schema refuses).
  const named = model.named && {
    name: fields.text({
      label: model.named.label,
      description: model.named.hint,
      validation: { isRequired: true },
    }),
  };
  const body = keyOf('body');
  return collection({
    label: model.label,
    path: `${model.folder}/*`,
    slugField: named ? 'name' : keyOf('pageAddress')!,
    format: body ? { contentField: body } : { data: 'yaml' },
    previewUrl,
    schema: { ...named, ...own } as Record<string, any>,
  });
}

/**
 * The redirects' two addresses: each checked against the other redirects and the site's pages, as
 * the build checks the whole list; a row names the page it leads to.
 */
const redirectEntry = (model: ListFileModel) => ({
  fields: {
    from: redirectAddressField('from', model.fields.from as CheckedField),
    to: redirectAddressField('to', model.fields.to as CheckedField),
  },
  itemLabel: ({ from, to }: { from: string; to: string }) => `${from} → ${named(to)}`,
});

/** A list file: one singleton whose `entries` are the file's entries, each with its `id`. */
function listFile(key: string, model: ListFileModel) {
  const redirects = key === 'redirects' ? redirectEntry(model) : undefined;
  const entry: Record<string, ComponentSchema> = {
    ...(model.ids && { id: editorField(entryId, context) }),
    ...(redirects?.fields ?? editorFields(model.fields, context)),
  };
  return singleton({
    label: model.label,
    path: model.file.replace(/\.yaml$/, ''),
    ...(model.preview && { previewUrl: `/api/editor/preview/${key}` }),
    format: { data: 'yaml' },
    schema: {
      entries: fields.array(fields.object(entry), {
        label: model.label,
        ...(model.hint !== undefined && { description: model.hint }),
        itemLabel: rowLabel((values) => (redirects?.itemLabel ?? model.itemLabel)(values)),
      }),
    },
  });
}

/** The editor's schema of a content model: the site's, or one a test grows. */
export function editorConfig(model: ContentModel = contentModel) {
  const { services, pages, redirects, ...lists } = model;
  return config({
    storage: { kind: 'local' },
    ui: {
      brand: { name: 'Site content' },
      // Keystatic's own headings are "Collections" and "Singletons".
      navigation: {
        Pages: ['services', 'pages'],
        'Lists on the pages': [
          'testimonials',
          'portfolio',
          'homePortfolio',
          'feedback',
          'pricing',
          'technologies',
          'enquiryServices',
        ],
        'Site and calls': ['settings', 'availability', 'redirects'],
      },
    },
    collections: {
      services: {
        ...folderCollection(services, '/api/editor/preview/services/{slug}'),
        // The entry's list shows each page's name beside its address.
        columns: ['title'],
      },
      // Through the editor's own address, which knows that "home" is / (src/editor/dev-server/editor.ts).
      pages: folderCollection(pages, '/api/editor/preview/pages/{slug}'),
    },
    singletons: {
      redirects: listFile('redirects', redirects),
      ...(Object.fromEntries(
        Object.entries(lists).map(([key, list]) => [key, listFile(key, list as ListFileModel)]),
      ) as Record<keyof typeof lists, ReturnType<typeof listFile>>),
    },
  });
}

export default editorConfig();
