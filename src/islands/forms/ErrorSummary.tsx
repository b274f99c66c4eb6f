/** The error summary at the top of a form (the GOV.UK Design System's pattern), linking to each control. */
import { useId } from 'react';
import type { FormSubmit } from './use-form-submit';

export interface SummaryItem {
  message: string;
  /** The id of the control the message links to. */
  target: string;
}

export function ErrorSummary({
  items,
  submit,
}: {
  items: SummaryItem[];
  submit: Pick<FormSubmit<string>, 'summaryRef'>;
}) {
  const id = useId();
  if (items.length === 0) return null;
  return (
    <div
      className="error-summary"
      ref={submit.summaryRef}
      tabIndex={-1}
      role="alert"
      aria-labelledby={`${id}-title`}
    >
      <h2 className="error-summary__title" id={`${id}-title`}>
        There is a problem
      </h2>
      <ul className="error-summary__list">
        {items.map((item) => (
          <li key={item.target}>
            <a
              href={`#${item.target}`}
              onClick={(event) => {
                // Focus the control itself (the link alone would only scroll to it).
                const control = document.getElementById(item.target);
                if (control) {
                  event.preventDefault();
                  control.focus();
                }
              }}
            >
              {item.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
