import { Item, Picker } from '@keystar/ui/picker';

/** A picker that starts with none chosen. */
export function OneOfInput(props: {
  label: string;
  description?: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange(value: string): void;
  problem?: string;
}) {
  return (
    <Picker
      label={props.label}
      description={props.description}
      placeholder="Choose one"
      items={props.options}
      value={props.value === '' ? null : props.value}
      onChange={(key) => key !== null && props.onChange(String(key))}
      errorMessage={props.problem}
      width={{ mobile: 'auto', tablet: 'alias.singleLineWidth' }}
    >
      {(item) => <Item key={item.value}>{item.label}</Item>}
    </Picker>
  );
}
