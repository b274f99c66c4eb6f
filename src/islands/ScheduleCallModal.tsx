import { useStore } from '@nanostores/react';
import { useEffect, useId, useState, type SubmitEvent } from 'react';
import { $callModalOpen, closeCallModal } from '../stores/call-modal';
import CloseButton from './CloseButton';
import { useModalDialog } from './use-modal-dialog';
import {
  callRequestLimits,
  hasErrors,
  validateCallRequest,
  type CallRequestField,
  type FieldErrors,
} from '../server/validation';

const fields: {
  name: CallRequestField;
  label: string;
  type: 'text' | 'email' | 'textarea';
  autoComplete?: string;
}[] = [
  { name: 'name', label: 'Name', type: 'text', autoComplete: 'name' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'message', label: 'Message', type: 'textarea' },
];

/**
 * The Schedule a Call modal: a native <dialog> opened with showModal(), so the
 * page behind is inert and Escape closes it; the form posts natively to
 * /send-mail.php once the shared validation passes.
 */
export default function ScheduleCallModal() {
  const open = useStore($callModalOpen);
  const [errors, setErrors] = useState<FieldErrors<CallRequestField>>({});
  const id = useId();

  const close = () => closeCallModal()?.focus();
  const dialog = useModalDialog(open, close);

  // Each opening starts without the messages of the last attempt.
  useEffect(() => {
    if (open) setErrors({});
  }, [open]);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    const data = new FormData(event.currentTarget);
    const found = validateCallRequest({
      name: String(data.get('name') ?? ''),
      email: String(data.get('email') ?? ''),
      message: String(data.get('message') ?? ''),
    });
    setErrors(found);
    if (hasErrors(found)) {
      event.preventDefault();
      const first = fields.find((f) => found[f.name]);
      event.currentTarget.querySelector<HTMLElement>(`[name="${first!.name}"]`)?.focus();
    }
  };

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
        <form className="form" method="post" action="/send-mail.php" noValidate onSubmit={onSubmit}>
          {fields.map((field) => {
            const error = errors[field.name];
            const inputId = `${id}-${field.name}`;
            const common = {
              id: inputId,
              name: field.name,
              required: true,
              maxLength: callRequestLimits[field.name],
              'aria-invalid': error ? true : undefined,
              'aria-describedby': error ? `${inputId}-error` : undefined,
            };
            return (
              <div className="field" key={field.name}>
                <label htmlFor={inputId}>{field.label}</label>
                {field.type === 'textarea' ? (
                  <textarea {...common} rows={4} />
                ) : (
                  <input {...common} type={field.type} autoComplete={field.autoComplete} />
                )}
                {error && (
                  <p className="field__error" id={`${inputId}-error`}>
                    {error}
                  </p>
                )}
              </div>
            );
          })}
          <button type="submit" className="button button--primary">
            Request a call
          </button>
        </form>
      </div>
    </dialog>
  );
}
