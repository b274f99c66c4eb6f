import { OutboxMessage } from '../OutboxNotice';
import type { FormSubmit } from './use-form-submit';

/** Where the form tells what became of a submission it kept on the device. */
export function KeptStatus({
  submit,
}: {
  submit: Pick<FormSubmit<string>, 'keptKey' | 'keptRef'>;
}) {
  if (!submit.keptKey) return null;
  return (
    <div className="form__kept" role="status" tabIndex={-1} ref={submit.keptRef}>
      <OutboxMessage itemKey={submit.keptKey} />
    </div>
  );
}
