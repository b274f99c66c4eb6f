/** The image field's widget: a picker of the folder's pictures, an upload, the unused pictures. */
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
  tooManyPixels,
  maxImageBytes,
  sizeInWords,
  type AssetFolder,
  type FolderImage,
} from '../../../domain/images.ts';
import { shrink } from './shrink.ts';
import { ask, browserId } from './endpoint.ts';
import { change, changes, current, subscribe, type FolderPictures } from './pictures.ts';

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

/** What a picture chosen in place of another asks of its Alt text. */
export const altPrompt = (kind: string) =>
  `A new ${kind}: check that its Alt text below still says what this one shows.`;

export function ImageChooser(props: {
  folder: AssetFolder;
  pictures: FolderPictures;
  label: string;
  description?: string;
  value: string;
  onChange(value: string): void;
  optional?: boolean;
  errorMessage?: string;
  /** An Alt text follows the field: a picture that replaces another asks for it to be checked. */
  altBeside?: boolean;
}) {
  const { folder, onChange } = props;
  const kind = imageKinds[folder];
  useSyncExternalStore(subscribe, () => changes[folder]);
  // The picture the entry had when the field was opened: another one chosen since replaces it.
  const [first] = useState(props.value);
  const replaced = props.altBeside && first !== '' && props.value !== '' && props.value !== first;
  const pictures = current(folder, props.pictures);
  const [state, setState] = useState<{
    busy?: boolean;
    error?: string;
    added?: string;
    removed?: string[];
    /** What was done to a photo too large for the folder. */
    shrunk?: string;
  }>({});
  const items = [
    ...(props.optional ? [{ name: NONE, url: undefined }] : []),
    ...Object.entries(pictures).map(([name, url]) => ({ name, url })),
  ];
  const kinds = imageExtensions[folder].join(', ');

  /** A photo over the folder's size, made smaller to fit: the file, and what was done, in words. */
  async function smallEnough(file: File, bytes: Uint8Array) {
    const limit = maxImageBytes[folder];
    if (
      (bytes.length <= limit && !tooManyPixels(bytes)) ||
      !imageExtensions[folder].includes('.webp')
    )
      return undefined;
    setState({ busy: true });
    const shrunk = await shrink(file, limit);
    if (!shrunk) return undefined;
    return {
      file: shrunk.file,
      said: `${bytes.length > limit ? `It was ${sizeInWords(file.size)}, more than ${kind.many} can be` : 'It had more pixels than any page needs'}: made smaller to fit (${shrunk.width} × ${shrunk.height} pixels, ${sizeInWords(shrunk.file.size)}).`,
    };
  }

  async function chosen(chosenFile: File) {
    let file = chosenFile;
    let bytes = new Uint8Array(await file.arrayBuffer());
    const smaller = await smallEnough(file, bytes);
    if (smaller) {
      file = smaller.file;
      bytes = new Uint8Array(await file.arrayBuffer());
    }
    // A name the folder holds already is the endpoint's to judge: the same file again is taken.
    const problem = imageProblem(folder, file.name, bytes, []);
    if (problem) return setState({ error: problem });
    setState({ busy: true });
    const browser = browserId();
    const { name, url, removed, error } = await ask(
      'POST',
      { folder, file: file.name, ...(browser && { browser }) },
      file,
    );
    if (!name || !url) return setState({ error });
    change(folder, name, url);
    onChange(name);
    setState({ added: name, removed, shrunk: smaller?.said });
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
                }${state.shrunk ? ` ${state.shrunk}` : ''}`
              : `${kinds}; named after the file.`}
        </Text>
      </Flex>
      {replaced && (
        <Text size="small" weight="semibold" color="accent" role="status">
          {altPrompt(kind.one)}
        </Text>
      )}
      <UnusedImages folder={folder} chosen={props.value} />
    </Flex>
  );
}
