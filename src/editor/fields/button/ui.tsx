import { FieldMessage } from '@keystar/ui/field';
import { Item, Picker } from '@keystar/ui/picker';
import { TextField } from '@keystar/ui/text-field';
import { useSyncExternalStore } from 'react';
import { currentSite, subscribeSite } from '../../site.ts';
import { Group } from '../group.tsx';
import { leadsTo } from '../link/validate.ts';
import { buttonProblem, type Button } from './validate.ts';

/** The kind of button, and, for a link of its own, its text and link. */
export function ButtonInput(props: {
  value: Button;
  onChange(value: Button): void;
  forceValidation: boolean;
  label: string;
  description?: string;
}) {
  const { value, onChange } = props;
  const kind = typeof value === 'string' ? value : 'link';
  const site = useSyncExternalStore(subscribeSite, currentSite, () => undefined);
  const problem = props.forceValidation ? buttonProblem(value, site) : undefined;
  const kinds = [
    { key: 'inquire', label: 'Inquire Now (external contact page)' },
    { key: 'none', label: 'No button' },
    { key: 'link', label: 'A link on this site' },
  ];
  return (
    <Group label={props.label} description={props.description}>
      <Picker
        label="Kind"
        items={kinds}
        value={kind}
        onChange={(next) => {
          if (next === null || next === kind) return;
          onChange(next === 'link' ? { text: '', href: '/contact' } : (next as Button));
        }}
        width={{ mobile: 'auto', tablet: 'alias.singleLineWidth' }}
      >
        {(item) => <Item key={item.key}>{item.label}</Item>}
      </Picker>
      {typeof value === 'object' && (
        <>
          <TextField
            label="Button text"
            value={value.text}
            onChange={(text) => onChange({ ...value, text })}
          />
          <TextField
            label="Link"
            value={value.href}
            description={leadsTo(value.href, site)}
            onChange={(href) => onChange({ ...value, href })}
          />
        </>
      )}
      {problem && <FieldMessage>{problem}</FieldMessage>}
    </Group>
  );
}
