import type { FormSubmit } from './use-form-submit';

/** The submit button, which says so and cannot be pressed twice while the form is being sent. */
export function SubmitButton({
  submit: { sending },
  children,
}: {
  submit: Pick<FormSubmit<string>, 'sending'>;
  children: string;
}) {
  return (
    <button
      type="submit"
      className="button button--primary"
      disabled={sending}
      aria-disabled={sending || undefined}
    >
      {sending ? 'Sending…' : children}
    </button>
  );
}
