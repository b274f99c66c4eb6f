/**
 * An image named as content names it (a file of one src/assets folder, without its extension),
 * chosen from the folder's pictures or uploaded into it. The upload is kept pending by the editor's
 * endpoint (src/integrations/editor-images.ts), shown from there, and chosen for the field; saving
 * the entry then names it, and the Save moves it into the folder itself, where every page can use
 * it (src/integrations/editor-pending.ts); unsaved, it never reaches the folder. The file is checked here
 * first, with the rule the endpoint checks it with again (src/domain/images.ts); the endpoint then
 * rewrites an SVG without what could run a script (src/domain/svg-clean.ts), and what it took out is
 * said beside the upload. The endpoint also lists which images nothing uses, which the field offers
 * to remove.
 */
import type { BasicFormField, FormFieldStoredValue } from '@keystatic/core';
import { ActionButton, Button } from '@keystar/ui/button';
import { FileTrigger } from '@keystar/ui/drag-and-drop';
import { Flex } from '@keystar/ui/layout';
import { Item, Picker } from '@keystar/ui/picker';
import { Text } from '@keystar/ui/typography';
import { useState, useSyncExternalStore } from 'react';
import {
  imageExtensions,
  imageKinds,
  imageProblem,
  imageUploadPath,
  type AssetFolder,
  type FolderImage,
} from '../domain/images.ts';

class FieldError extends Error {}

/** A folder's pictures by name: where the dev server shows each (the editor's schema globs them). */
export type FolderPictures = Readonly<Record<string, string>>;

/**
 * What changed in each folder since the editor was opened: pictures uploaded, and removed. Every
 * field of the folder reads it; a page loaded later reads the folder itself again.
 */
const changes: Record<AssetFolder, { added: FolderPictures; removed: ReadonlySet<string> }> = {
  icons: { added: {}, removed: new Set() },
  illustrations: { added: {}, removed: new Set() },
  portfolio: { added: {}, removed: new Set() },
  logos: { added: {}, removed: new Set() },
};
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
function change(folder: AssetFolder, name: string, url?: string) {
  const { added, removed } = changes[folder];
  const left = new Set(removed);
  const now = { ...added };
  if (url) {
    now[name] = url;
    left.delete(name);
  } else {
    delete now[name];
    left.add(name);
  }
  changes[folder] = { added: now, removed: left };
  for (const listener of listeners) listener();
}

/** The folder's pictures as they are now: those of the schema, plus uploads, less removals. */
function current(folder: AssetFolder, pictures: FolderPictures): FolderPictures {
  const { added, removed } = changes[folder];
  return Object.fromEntries(
    Object.entries({ ...pictures, ...added })
      .filter(([name]) => !removed.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** Whether a name is one of the folder's pictures, those uploaded since the editor was opened included. */
export const isKnownImage = (folder: AssetFolder, pictures: FolderPictures, name: string) =>
  name in current(folder, pictures);

type Answer = {
  name?: string;
  url?: string;
  /** What the endpoint took out of an uploaded SVG, in words ("a script"). */
  removed?: string[];
  images?: FolderImage[];
  error?: string;
};

/** A request to the editor's image endpoint: its JSON, or the reason it failed. */
async function ask(
  method: 'GET' | 'POST' | 'DELETE',
  query: Record<string, string>,
  body?: File,
): Promise<Answer> {
  try {
    const response = await fetch(`${imageUploadPath}?${new URLSearchParams(query)}`, {
      method,
      ...(body && { headers: { 'content-type': 'application/octet-stream' }, body }),
    });
    const answer = (await response.json().catch(() => ({}))) as Answer;
    if (response.ok) return answer;
    return { error: answer.error ?? `That did not work (${response.status}).` };
  } catch {
    return { error: 'The editor could not reach `npm run edit`: is it still running?' };
  }
}

const capitalised = (text: string) => text[0]!.toUpperCase() + text.slice(1);

function Thumbnail(props: { url: string | undefined; size: number; slot?: string }) {
  if (!props.url) return null;
  return (
    <img
      src={props.url}
      alt=""
      width={props.size}
      height={props.size}
      {...(props.slot && { slot: props.slot })}
      style={{
        objectFit: 'contain',
        width: props.size,
        height: props.size,
        flexShrink: 0,
        gridArea: props.slot,
        marginInlineEnd: props.slot ? 8 : undefined,
        background: '#fff',
        borderRadius: 4,
      }}
    />
  );
}

/** The folder's pictures nothing uses, each with a button that removes it from the folder. */
function UnusedImages(props: { folder: AssetFolder; chosen: string }) {
  const { folder } = props;
  const kind = imageKinds[folder];
  const [state, setState] = useState<{ open?: boolean; images?: FolderImage[]; error?: string }>(
    {},
  );
  const load = async () => {
    const { images, error } = await ask('GET', { folder });
    setState({ open: true, images: images?.filter((image) => !image.used), error });
  };
  const remove = async (name: string) => {
    const { error } = await ask('DELETE', { folder, name });
    if (error) return setState((now) => ({ ...now, error }));
    change(folder, name);
    setState((now) => ({ ...now, images: now.images?.filter((image) => image.name !== name) }));
  };
  if (!state.open)
    return (
      <ActionButton prominence="low" onPress={load} alignSelf="start">
        {`Unused ${kind.many}…`}
      </ActionButton>
    );
  // The picture chosen here is about to be used, even if no saved page shows it yet.
  const unused = state.images?.filter((image) => image.name !== props.chosen) ?? [];
  return (
    <Flex direction="column" gap="regular" role="group" aria-label={`Unused ${kind.many}`}>
      <Text size="small" color="neutralSecondary" role="status">
        {state.error ??
          (unused.length === 0
            ? `Every ${kind.one} is shown somewhere on the site.`
            : `${capitalised(kind.many)} that no page shows:`)}
      </Text>
      {unused.map((image) => (
        <Flex key={image.name} gap="regular" alignItems="center">
          <Thumbnail url={image.url} size={32} />
          <Text>{image.name}</Text>
          <ActionButton onPress={() => remove(image.name)} aria-label={`Remove ${image.name}`}>
            Remove
          </ActionButton>
        </Flex>
      ))}
    </Flex>
  );
}

const NONE = '(none)';

export function ImageChooser(props: {
  folder: AssetFolder;
  pictures: FolderPictures;
  label: string;
  description?: string;
  value: string;
  onChange(value: string): void;
  optional?: boolean;
  errorMessage?: string;
}) {
  const { folder, onChange } = props;
  const kind = imageKinds[folder];
  useSyncExternalStore(subscribe, () => changes[folder]);
  const pictures = current(folder, props.pictures);
  const [state, setState] = useState<{
    busy?: boolean;
    error?: string;
    added?: string;
    removed?: string[];
  }>({});
  const items = [
    ...(props.optional ? [{ name: NONE, url: undefined }] : []),
    ...Object.entries(pictures).map(([name, url]) => ({ name, url })),
  ];
  const kinds = imageExtensions[folder].join(', ');

  async function chosen(file: File) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    // A name the folder holds already is the endpoint's to judge: the same file again is taken.
    const problem = imageProblem(folder, file.name, bytes, []);
    if (problem) return setState({ error: problem });
    setState({ busy: true });
    const { name, url, removed, error } = await ask('POST', { folder, file: file.name }, file);
    if (!name || !url) return setState({ error });
    change(folder, name, url);
    onChange(name);
    setState({ added: name, removed });
  }

  return (
    <Flex direction="column" gap="regular">
      <Flex gap="regular" alignItems="end">
        <Picker
          label={props.label}
          description={props.description}
          placeholder={`Choose ${/^[aeiou]/.test(kind.one) ? 'an' : 'a'} ${kind.one}`}
          items={items}
          value={props.value === '' ? (props.optional ? NONE : null) : props.value}
          onChange={(key) => {
            if (key === null) return;
            setState({}); // a refused upload's message no longer applies
            onChange(key === NONE ? '' : String(key));
          }}
          errorMessage={state.error ?? props.errorMessage}
          width={{ mobile: 'auto', tablet: 'alias.singleLineWidth' }}
        >
          {(item) => (
            <Item key={item.name} textValue={item.name}>
              <Thumbnail url={item.url} size={24} slot="icon" />
              <Text>{item.name}</Text>
            </Item>
          )}
        </Picker>
        <Thumbnail url={pictures[props.value]} size={56} />
      </Flex>
      <Flex gap="regular" alignItems="center" wrap>
        <FileTrigger
          acceptedFileTypes={[...imageExtensions[folder]]}
          onSelect={(files) => {
            const file = files?.[0];
            if (file) void chosen(file);
          }}
        >
          <Button
            isDisabled={state.busy}
          >{`Upload ${/^[aeiou]/.test(kind.one) ? 'an' : 'a'} ${kind.one}…`}</Button>
        </FileTrigger>
        <Text size="small" color="neutralSecondary" role="status">
          {state.busy
            ? 'Uploading…'
            : state.added
              ? `Added "${state.added}", and chosen.${
                  state.removed?.length
                    ? ` Removed from the file: ${state.removed.join(', ')}.`
                    : ''
                }`
              : `${kinds}; named after the file.`}
        </Text>
      </Flex>
      <UnusedImages folder={folder} chosen={props.value} />
    </Flex>
  );
}

/**
 * A required or optional image of one folder, as the site's schema takes it. A required one starts
 * empty: no picture is a sensible default for a new tile or logo.
 */
export function imageField(
  folder: AssetFolder,
  label: string,
  pictures: FolderPictures,
  options: { description?: string; optional?: boolean } = {},
): BasicFormField<string> {
  const known = (value: string) => isKnownImage(folder, pictures, value);
  const kind = imageKinds[folder];
  const problem = (value: string) => {
    if (value === '') return options.optional ? undefined : `Choose ${label.toLowerCase()}`;
    if (!known(value)) return `There is no ${kind.one} named "${value}" any more: choose another`;
    return undefined;
  };
  const validate = (value: string) => {
    const found = problem(value);
    if (found) throw new FieldError(`${label}: ${found[0]!.toLowerCase()}${found.slice(1)}`);
    return value;
  };
  const parse = (value: FormFieldStoredValue) => {
    if (value === undefined) return '';
    if (typeof value !== 'string') throw new FieldError(`must be the name of ${kind.one}`);
    return value;
  };
  return {
    kind: 'form',
    label,
    Input: ({ value, onChange, forceValidation }) => (
      <ImageChooser
        folder={folder}
        pictures={pictures}
        label={label}
        description={options.description}
        value={value}
        onChange={onChange}
        optional={options.optional}
        errorMessage={forceValidation ? problem(value) : undefined}
      />
    ),
    defaultValue: () => '',
    parse,
    serialize: (value) => ({ value: value === '' && options.optional ? undefined : value }),
    validate,
    reader: { parse: (value) => validate(parse(value)) },
  };
}
