import { FieldMessage } from '@keystar/ui/field';
import { TextField } from '@keystar/ui/text-field';
import { useState } from 'react';
import { Group } from '../group.tsx';
import { ImageChooser, altPrompt } from '../image/ui.tsx';
import type { FolderPictures } from '../image/pictures.ts';
import type { Illustration } from './validate.ts';

/** An illustration chosen (or none), and, chosen, its alt text. */
export function IllustrationInput(props: {
  label: string;
  description?: string;
  pictures: FolderPictures;
  value: Illustration;
  onChange(value: Illustration): void;
  problem?: string;
}) {
  const { value, onChange } = props;
  // The picture the page had when opened: another one chosen since asks for its Alt text anew.
  const [first] = useState(value?.image ?? '');
  const replaced = !!value && first !== '' && value.image !== first;
  return (
    <Group label={props.label} description={props.description}>
      <ImageChooser
        folder="illustrations"
        pictures={props.pictures}
        label="Image"
        value={value?.image ?? ''}
        optional
        onChange={(image) => onChange(image ? { image, alt: value?.alt ?? '' } : null)}
      />
      {value && (
        <TextField
          label="Alt text"
          value={value.alt}
          description={replaced ? altPrompt('illustration').replace(' below', '') : undefined}
          onChange={(alt) => onChange({ ...value, alt })}
        />
      )}
      {props.problem && <FieldMessage>{props.problem}</FieldMessage>}
    </Group>
  );
}
