import { Checkbox, CheckboxGroup } from '@keystar/ui/checkbox';

/** A checkbox an option, in the order of the options. */
export function SomeOfInput(props: {
  label: string;
  description?: string;
  options: readonly string[];
  value: string[];
  onChange(value: string[]): void;
  problem?: string;
}) {
  const { options } = props;
  return (
    <CheckboxGroup
      label={props.label}
      description={props.description}
      value={[...props.value]}
      // Kept in the order of the options, as the files list them.
      onChange={(chosen) => props.onChange(options.filter((option) => chosen.includes(option)))}
      errorMessage={props.problem}
    >
      {options.map((option) => (
        <Checkbox key={option} value={option}>
          {option}
        </Checkbox>
      ))}
    </CheckboxGroup>
  );
}
