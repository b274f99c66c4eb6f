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

/** A random key: a UUID, or 32 hex digits where randomUUID is not offered (a page not served over HTTPS). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
}
