import type { FormSubmit } from './use-form-submit';

/** Why the last post failed, when it was not for its fields: what was typed is kept. */
export function FailureMessage({
  submit,
}: {
  submit: Pick<FormSubmit<string>, 'failure' | 'failureRef'>;
}) {
  if (!submit.failure) return null;
  return (
    <p className="form__failure" role="alert" tabIndex={-1} ref={submit.failureRef}>
      {submit.failure}
    </p>
  );
}
