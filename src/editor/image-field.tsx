/**
 * An image named as content names it (a file of one src/assets folder, without its extension),
 * chosen from the folder's images or uploaded into it. The upload is written at once by the
 * editor's endpoint (src/integrations/editor-images.ts), into the folder itself, so that every page
 * can use it, and is chosen for the field; saving the entry then names it. The file is checked here
 * first, with the rule the endpoint checks it with again (src/domain/images.ts).
 */
import type { BasicFormField, FormFieldStoredValue } from '@keystatic/core';
import { Button } from '@keystar/ui/button';
import { FileTrigger } from '@keystar/ui/drag-and-drop';
import { Flex } from '@keystar/ui/layout';
import { Item, Picker } from '@keystar/ui/picker';
import { Text } from '@keystar/ui/typography';
import { useState, useSyncExternalStore } from 'react';
import {
  imageExtensions,
  imageProblem,
  imageUploadPath,
  type AssetFolder,
} from '../domain/images.ts';

class FieldError extends Error {}

/** The names uploaded since the editor was opened, per folder: every field of the folder offers them. */
const uploaded: Record<AssetFolder, readonly string[]> = {
  icons: [],
  illustrations: [],
  portfolio: [],
  logos: [],
};
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const addUploaded = (folder: AssetFolder, name: string) => {
  uploaded[folder] = [...uploaded[folder], name].sort();
  for (const listener of listeners) listener();
};

/** Whether a name is one of the folder's images, those uploaded since the editor was opened included. */
export const isKnownImage = (folder: AssetFolder, names: readonly string[], name: string) =>
  names.includes(name) || uploaded[folder].includes(name);

/** Sends a file to the editor's endpoint; the name content will use, or the reason it was refused. */
type Uploaded = { name?: string; file?: string; error?: string };
async function upload(folder: AssetFolder, file: File): Promise<Uploaded> {
  try {
    const response = await fetch(
      `${imageUploadPath}?${new URLSearchParams({ folder, file: file.name })}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: file,
      },
    );
    const answer = (await response.json().catch(() => ({}))) as Uploaded;
    if (response.ok && answer.name) return answer;
    return { error: answer.error ?? `The upload failed (${response.status}).` };
  } catch {
    return { error: 'The editor could not reach `npm run edit`: is it still running?' };
  }
}

const NONE = '(none)';

export function ImageChooser(props: {
  folder: AssetFolder;
  names: readonly string[];
  label: string;
  description?: string;
  value: string;
  onChange(value: string): void;
  optional?: boolean;
  errorMessage?: string;
}) {
  const { folder, onChange } = props;
  const added = useSyncExternalStore(subscribe, () => uploaded[folder]);
  const [state, setState] = useState<{ busy?: boolean; error?: string; added?: string }>({});
  const names = [...new Set([...props.names, ...added])].sort();
  const items = [...(props.optional ? [NONE] : []), ...names].map((name) => ({ name }));
  const kinds = imageExtensions[folder].join(', ');

  async function chosen(file: File) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const problem = imageProblem(folder, file.name, bytes, names);
    if (problem) return setState({ error: problem });
    setState({ busy: true });
    const { name, file: written, error } = await upload(folder, file);
    if (!name) return setState({ error });
    addUploaded(folder, name);
    onChange(name);
    setState({ added: written ?? name });
  }

  return (
    <Flex direction="column" gap="regular">
      <Picker
        label={props.label}
        description={props.description}
        items={items}
        value={props.value === '' && props.optional ? NONE : props.value}
        onChange={(key) => {
          if (key === null) return;
          setState({}); // a refused upload's message no longer applies
          onChange(key === NONE ? '' : String(key));
        }}
        errorMessage={state.error ?? props.errorMessage}
        width={{ mobile: 'auto', tablet: 'alias.singleLineWidth' }}
      >
        {(item) => <Item key={item.name}>{item.name}</Item>}
      </Picker>
      <Flex gap="regular" alignItems="center">
        <FileTrigger
          acceptedFileTypes={[...imageExtensions[folder]]}
          onSelect={(files) => {
            const file = files?.[0];
            if (file) void chosen(file);
          }}
        >
          <Button isDisabled={state.busy}>{`Upload to ${folder}…`}</Button>
        </FileTrigger>
        <Text size="small" color="neutralSecondary" role="status">
          {state.busy
            ? 'Uploading…'
            : state.added
              ? `Added ${state.added}, and chosen.`
              : `${kinds}; named after the file.`}
        </Text>
      </Flex>
    </Flex>
  );
}

/** A required or optional image name of one folder, as the site's schema takes it. */
export function imageField(
  folder: AssetFolder,
  label: string,
  names: readonly string[],
  options: { description?: string; optional?: boolean } = {},
): BasicFormField<string> {
  const known = (value: string) => isKnownImage(folder, names, value);
  const validate = (value: string) => {
    if (value === '' && options.optional) return value;
    if (!known(value)) throw new FieldError(`${label}: choose an image of src/assets/${folder}`);
    return value;
  };
  const parse = (value: FormFieldStoredValue) => {
    if (value === undefined && options.optional) return '';
    if (typeof value !== 'string')
      throw new FieldError(`must be the name of an image of ${folder}`);
    return value;
  };
  return {
    kind: 'form',
    label,
    Input: ({ value, onChange, forceValidation }) => (
      <ImageChooser
        folder={folder}
        names={names}
        label={label}
        description={options.description}
        value={value}
        onChange={onChange}
        optional={options.optional}
        errorMessage={
          forceValidation && !known(value) && value !== '' ? `Choose an image` : undefined
        }
      />
    ),
    defaultValue: () => (options.optional ? '' : (names[0] ?? '')),
    parse,
    serialize: (value) => ({ value }),
    validate,
    reader: { parse: (value) => validate(parse(value)) },
  };
}
