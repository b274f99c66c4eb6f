import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { CHOOSE_TIME, FIRST_TIMES, REQUESTED } from '../domain/hand-over';
import { $chosenTime, $timeRefusal, CALL_TIME_ID } from '../stores/call-modal';
import TimePicker from './TimePicker';
import { useTakeOver } from './use-take-over';

/**
 * The Schedule a Call dialog's optional step, an island of its own inside the dialog's form, so
 * that its code loads only when a visitor asks for a time. Until then (and without JavaScript) it
 * is a link to /schedule, which lists the free times; a tap on it before this code has arrived is
 * held by the page's first move (REQUESTED, in BaseLayout), which offers the first days' times
 * meanwhile (FIRST_TIMES, after this island): both are adopted here, with the time chosen there.
 */
export default function CallTimeStep() {
  const [choosing, setChoosing] = useState(false);
  const refusal = useStore($timeRefusal);
  const chosen = useStore($chosenTime);
  const refocus = useRef(false);
  const clear = () => {
    setChoosing(false);
    $chosenTime.set(null);
    $timeRefusal.set({});
  };
  // 'Just send a message' closed the step: focus goes back to the link that opens it.
  useEffect(() => {
    if (choosing || !refocus.current) return;
    refocus.current = false;
    document.getElementById(CALL_TIME_ID)?.focus();
  }, [choosing]);
  const root = useTakeOver<HTMLDivElement>((element) => {
    if (element.querySelector(`[${REQUESTED}]`)) setChoosing(true);
    const first = element.closest('astro-island')?.nextElementSibling;
    if (!first?.hasAttribute(FIRST_TIMES)) return;
    const picked = first.querySelector<HTMLInputElement>('input[name=slot]:checked');
    if (picked) $chosenTime.set({ start: picked.value });
    first.remove();
  });

  // The form was reset (its submission was kept on the device): the step starts again.
  useEffect(() => {
    const form = root.current?.closest('form');
    form?.addEventListener('reset', clear);
    return () => form?.removeEventListener('reset', clear);
  }, []);

  return (
    <div ref={root}>
      {choosing ? (
        <TimePicker
          id={CALL_TIME_ID}
          error={refusal.error}
          alternatives={refusal.alternatives}
          chosen={chosen?.start}
          onChoose={(slot) => {
            $chosenTime.set(slot);
            if (refusal.error) $timeRefusal.set({ alternatives: refusal.alternatives });
          }}
          onCancel={() => {
            refocus.current = true;
            clear();
          }}
          noneFree="No time is free in the coming days. Just send a message and we will reply to arrange one."
        />
      ) : (
        <p>
          <a
            id={CALL_TIME_ID}
            href="/schedule"
            {...{ [CHOOSE_TIME]: '' }}
            onClick={(event) => {
              event.preventDefault();
              setChoosing(true);
            }}
          >
            Choose a time for the call
          </a>{' '}
          (optional)
        </p>
      )}
    </div>
  );
}
