import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { endpoints } from '../domain/api';
import { $callModalOpen } from '../stores/call-modal';
import {
  $outbox,
  dismiss,
  somethingKept,
  startOutbox,
  writeAgain,
  type OutboxItem,
} from '../stores/device-queue';

const names: Record<OutboxItem['kind'], string> = {
  call: 'call request',
  enquiry: 'enquiry',
};

/** What became of one kept submission: saved on the device, sent, or refused by the server. */
export function OutboxMessage({ itemKey }: { itemKey: string }) {
  const item = useStore($outbox).find((candidate) => candidate.key === itemKey);
  if (!item) return null;
  const name = names[item.kind];
  if (item.state === 'sent') {
    // A call booked from the device: its page has its time and what comes next (with e-mail off,
    // the only place its change and cancel links are).
    return item.booked ? (
      <p>
        <strong>Booked.</strong> Your call is booked:{' '}
        <a href={item.booked}>see its time and what happens next</a>.
      </p>
    ) : (
      <p>
        <strong>Sent.</strong> We have your {name} and will be in touch soon.
      </p>
    );
  }
  if (item.state === 'refused') {
    // Refused for its time: the server's nearest free times came with the answer, not to this
    // notice, so another time is chosen in the dialog (beside this notice in its island), with
    // what was written in its form; on /schedule without JavaScript.
    return (
      <>
        <p>
          <strong>
            {item.refusedTime
              ? 'Your call could not be booked.'
              : `Your ${name} could not be sent.`}
          </strong>{' '}
          {item.refusedTime === 'taken'
            ? 'Its time was taken by someone else while it waited on this phone.'
            : item.error}{' '}
          {item.refusedTime ? (
            <a
              href={endpoints.schedule}
              onClick={(event) => {
                event.preventDefault();
                void writeAgain(item.key, event.currentTarget);
              }}
            >
              Choose another time
            </a>
          ) : (
            'Please send it again.'
          )}
        </p>
        {item.message && (
          <blockquote className="outbox__message" aria-label={`What you wrote`}>
            {item.message}
          </blockquote>
        )}
      </>
    );
  }
  if (item.why === 'busy') {
    return (
      <p>
        <strong>Saved on this phone.</strong> We could not take your {name} just now, so it will be
        sent again automatically in a minute or two, even if you leave this page.
      </p>
    );
  }
  return (
    <p>
      <strong>Saved on this phone.</strong> There is no connection just now, so your {name} will be
      sent automatically as soon as it returns, even if you leave this page.
    </p>
  );
}

/**
 * The notice of the enquiries kept on this device that no open form is showing: those kept on an
 * earlier visit, and a call request once its dialog is closed. It sends them when the connection
 * allows (src/stores/device-queue.ts) and says when they have gone.
 */
export default function OutboxNotice() {
  const items = useStore($outbox);
  const dialogOpen = useStore($callModalOpen);
  // A visitor who never had one kept opens no database.
  useEffect(() => {
    if (somethingKept()) void startOutbox();
  }, []);
  const shown = items.filter((item) => !item.here || (item.kind === 'call' && !dialogOpen));

  return (
    <div className="outbox" role="status">
      {shown.map((item) => (
        <div className="outbox__item" key={item.key}>
          <OutboxMessage itemKey={item.key} />
          {item.state !== 'kept' && (
            <button
              type="button"
              className="button button--secondary outbox__dismiss"
              onClick={() => dismiss(item.key)}
            >
              Dismiss
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
