import { useState, type ReactNode } from 'react';
import type { Slot } from '../domain/booking';
import TimePicker from './TimePicker';
import { useTakeOver } from './use-take-over';

interface Props {
  /** The id of the first control, which the error summary links to. */
  id: string;
  /** The times the call can move to, and the zones to show them in. */
  slots: Slot[];
  agencyZone: string;
  zone: string;
  /** The locale the prospect reads times in (as the server's list writes them). */
  locale: string;
  error?: string;
  alternatives?: Slot[];
  /** The day the picker opens on: the server's list's first (the call's own, or `?from=`). */
  openOn?: string;
  /** What is said when no other time is free: the change page's content (schedule-change.yaml). */
  noneFree: string;
  /** The server's list of the times as radio buttons: what the page shows until this takes over. */
  children?: ReactNode;
}

/**
 * The choice of a new time on a call's change page: the server's list of every free time (radio
 * buttons named `slot`, which post without JavaScript), and once this code has arrived, the Schedule
 * a Call dialog's time picker over the same times, a day at a time, keeping a time chosen already.
 */
export default function ChangeTimeChoice({
  id,
  slots,
  agencyZone,
  zone,
  locale,
  error,
  alternatives,
  openOn,
  noneFree,
  children,
}: Props) {
  const [picker, setPicker] = useState(false);
  const [chosen, setChosen] = useState<string | undefined>();
  const root = useTakeOver<HTMLDivElement>((element) => {
    const checked = element.querySelector<HTMLInputElement>('input[name="slot"]:checked');
    if (checked) setChosen(checked.value);
    setPicker(true);
  });
  return (
    <div ref={root}>
      {picker ? (
        <TimePicker
          id={id}
          given={{ agencyZone, slots }}
          zone={zone}
          locale={locale}
          error={error}
          {...(alternatives?.length && { alternatives })}
          chosen={chosen}
          onChoose={(slot) => setChosen(slot?.start)}
          focusOnOpen={false}
          {...(openOn && { openOn })}
          noneFree={noneFree}
        />
      ) : (
        children
      )}
    </div>
  );
}
