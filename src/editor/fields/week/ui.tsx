import { Checkbox } from '@keystar/ui/checkbox';
import { CheckedText } from '../checked/ui.tsx';
import { Group } from '../group.tsx';
import { dayLabel } from '../../../content-model/places.ts';
import { DAY_HINT, type Week } from './validate.ts';

/** A checkbox, then, ticked, a line of hours for each day. */
export function WeekInput<Day extends string>(props: {
  label: string;
  description?: string;
  days: readonly Day[];
  value: Week<Day>;
  onChange(value: Week<Day>): void;
  forceValidation: boolean;
  dayProblem(day: Day, text: string): string | undefined;
}) {
  const { value, onChange, days } = props;
  return (
    <Group label={props.label} description={props.description}>
      <Checkbox
        isSelected={value !== null}
        onChange={(own) =>
          onChange(
            own ? (Object.fromEntries(days.map((day) => [day, ''])) as Record<Day, string>) : null,
          )
        }
      >
        {props.label}
      </Checkbox>
      {value &&
        days.map((day) => (
          <CheckedText
            key={day}
            label={dayLabel(day)}
            description={DAY_HINT}
            value={value[day]}
            onChange={(text) => onChange({ ...value, [day]: text })}
            forceValidation={props.forceValidation}
            problem={(text) => props.dayProblem(day, text)}
          />
        ))}
    </Group>
  );
}
