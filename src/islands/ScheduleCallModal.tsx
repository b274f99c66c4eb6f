import { useStore } from '@nanostores/react';
import { useId, useMemo, type ReactNode } from 'react';
import {
  $callModalOpen,
  CALL_DIALOG_ID,
  closeCallModal,
  openCallModal,
} from '../stores/call-modal';
import { SCHEDULE_CALL } from '../domain/hand-over';
import CloseButton from './CloseButton';
import OutboxNotice from './OutboxNotice';
import ScheduleCallForm from './ScheduleCallForm';
import { useModalDialog } from './use-modal-dialog';

/**
 * The Schedule a Call modal: a native <dialog>, server-rendered with its form, opened with
 * showModal(), so the page behind is inert and Escape closes it. Any SCHEDULE_CALL link
 * opens it: the page's first move does until this island hydrates, then the island does. What was
 * typed before hydration stays: the form's fields are uncontrolled and hydrated in place.
 *
 * Its form's optional time step is an island of its own (CallTimeStep, passed in by BaseLayout),
 * whose code loads only when a visitor asks for a time.
 *
 * It also carries the notice of enquiries kept on the device (OutboxNotice), the one island on
 * every page: BaseLayout hydrates it at once while the device keeps any.
 */
export default function ScheduleCallModal({ timeStep }: { timeStep?: ReactNode }) {
  const open = useStore($callModalOpen);
  const id = useId();
  // Focus back on what opened it, once closed (the browser's own return is to what had focus).
  const returnFocus = () => closeCallModal()?.focus();
  const { props: dialog, close } = useModalDialog(open, returnFocus, (element) => {
    if (element.open) openCallModal(null);
    const onTrigger = (event: MouseEvent) => {
      const trigger = (event.target as Element).closest?.<HTMLElement>(`[${SCHEDULE_CALL}]`);
      if (!trigger || event.defaultPrevented) return;
      event.preventDefault();
      openCallModal(trigger);
    };
    document.addEventListener('click', onTrigger);
    return () => document.removeEventListener('click', onTrigger);
  });
  // The same element from render to render: opening or closing does not render the form again.
  const form = useMemo(() => <ScheduleCallForm timeStep={timeStep} />, [timeStep]);

  return (
    <>
      <dialog
        {...dialog}
        id={CALL_DIALOG_ID}
        // Escape and a click outside close it while it is not yet modal (BaseLayout.astro's first move).
        closedby="any"
        className="modal call-modal"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-intro`}
      >
        <div className="modal__panel">
          <div className="modal__head">
            <h2 id={`${id}-title`}>Schedule a Call</h2>
            <CloseButton onClick={close} />
          </div>
          <p id={`${id}-intro`} className="call-modal__intro">
            Leave your details and a line about your project, and choose a time if you like.
          </p>
          {form}
        </div>
      </dialog>
      <OutboxNotice />
    </>
  );
}
