import { IDEMPOTENCY_FIELD } from '../../domain/forms';

/**
 * The submission's idempotency key (see IDEMPOTENCY_FIELD): empty in the page, where useFormSubmit
 * makes one when the form is first sent; a form the server shows again keeps the key it was sent with.
 */
export function IdempotencyKey({ values }: { values?: Record<string, string | string[]> }) {
  const value = values?.[IDEMPOTENCY_FIELD];
  return (
    <input
      type="hidden"
      name={IDEMPOTENCY_FIELD}
      defaultValue={typeof value === 'string' ? value : ''}
    />
  );
}

/**
 * A random key of 32 hex digits: made so on every page, where randomUUID is offered only to one served
 * over HTTPS (the first move's native post sends a UUID where it is; the server takes either).
 */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
}
