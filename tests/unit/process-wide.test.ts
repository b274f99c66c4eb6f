/**
 * A process serves each release's build beside the first, each with its own copy of the server's
 * modules, over the first build's services (src/server/releases/live-site.ts): an error a service
 * throws must be the class a route of another build catches. Two copies of the modules here, as two
 * builds would load them.
 */
import { expect, it } from 'vitest';
import * as first from '../../src/server/store/types';
import * as messages from '../../src/server/booking/messages';
import * as draft from '../../src/server/releases/draft';

it('gives every copy of the server’s modules the same error classes', async () => {
  const second = (await import('../../src/server/store/types.ts?another-build')) as typeof first;
  const otherMessages =
    (await import('../../src/server/booking/messages.ts?another-build')) as typeof messages;
  const otherDraft =
    (await import('../../src/server/releases/draft.ts?another-build')) as typeof draft;
  expect(second).not.toBe(first);
  expect(new first.SlotTaken()).toBeInstanceOf(second.SlotTaken);
  expect(new second.BookingCapReached('email', 2)).toBeInstanceOf(first.BookingCapReached);
  expect(new messages.CalendarsUnreadable()).toBeInstanceOf(otherMessages.CalendarsUnreadable);
  expect(new otherDraft.PublishRefused('no')).toBeInstanceOf(draft.PublishRefused);
  expect(new first.SlotTaken().message).toBe('That time was just taken.');
});
