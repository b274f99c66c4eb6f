import { useId } from 'react';
import { HONEYPOT_FIELD } from '../../domain/forms';

/** A field hidden from people (and from assistive technology) that only bots fill in. */
export function Honeypot() {
  const id = useId();
  return (
    <div className="honeypot" aria-hidden="true">
      <label htmlFor={id}>Leave this field empty</label>
      <input
        id={id}
        name={HONEYPOT_FIELD}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  );
}
