import type { MouseEvent } from 'react';
import { openCallModal } from '../stores/call-modal';

interface Props {
  className?: string;
}

/**
 * 'Schedule a Call': opens the one call modal of the page. It is a link to
 * /contact, which is what it does before and without JavaScript.
 */
export default function ScheduleCallButton({ className = 'button button--primary' }: Props) {
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    openCallModal(event.currentTarget);
  };
  return (
    <a className={className} href="/contact" data-schedule-call="" onClick={open}>
      Schedule a Call
    </a>
  );
}
