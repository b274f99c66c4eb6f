/**
 * The log's line for what happens to a booked call at its prospect's hand: booked, moved,
 * cancelled (the staff's own changes are the staff desk's to log). Each names the call by its
 * reference as the desk shows it (referenceOf), with its times (UTC) and host:
 * never its prospect's name, address or message.
 */
import { referenceOf } from '../../domain/staff.ts';
import { log } from '../log.ts';
import type { StoredEnquiry } from '../store/types.ts';

const host = (enquiry: StoredEnquiry) => enquiry.call?.host ?? 'no host';

export const callLog = {
  booked(enquiry: StoredEnquiry) {
    log.info(
      `Call ${referenceOf(enquiry.id)}: booked for ${enquiry.call!.start}, with ${host(enquiry)}.`,
    );
  },
  moved(enquiry: StoredEnquiry, previous: { start: string }) {
    log.info(
      `Call ${referenceOf(enquiry.id)}: moved by its prospect from ${previous.start} to ${enquiry.call!.start}, with ${host(enquiry)}.`,
    );
  },
  cancelled(enquiry: StoredEnquiry) {
    log.info(
      `Call ${referenceOf(enquiry.id)}: cancelled by its prospect (it was for ${enquiry.call!.start}).`,
    );
  },
};
