import { useStore } from '@nanostores/react';
import { useId } from 'react';
import { $callModalOpen, closeCallModal } from '../stores/call-modal';
import CloseButton from './CloseButton';
import ScheduleCallForm from './ScheduleCallForm';
import { useModalDialog } from './use-modal-dialog';

/**
 * The Schedule a Call modal: a native <dialog> opened with showModal(), so the
 * page behind is inert and Escape closes it. Every opening starts a fresh form.
 */
export default function ScheduleCallModal() {
  const open = useStore($callModalOpen);
  const id = useId();
  const close = () => closeCallModal()?.focus();
  const dialog = useModalDialog(open, close);

  return (
    <dialog
      {...dialog}
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
          Leave your details and a line about your project; we will reply to arrange a time.
        </p>
        {open && <ScheduleCallForm />}
      </div>
    </dialog>
  );
}
