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

/** Another copy of a module, as another build holds it (its own URL, so its own instance). */
const copy = (path: string) => import(/* @vite-ignore */ `${path}?another-build`);

it('gives every copy of the server’s modules the same error classes', async () => {
  const second = (await copy('../../src/server/store/types.ts')) as typeof first;
  const otherMessages = (await copy('../../src/server/booking/messages.ts')) as typeof messages;
  const otherDraft = (await copy('../../src/server/releases/draft.ts')) as typeof draft;
  expect(second).not.toBe(first);
  expect(new first.SlotTaken()).toBeInstanceOf(second.SlotTaken);
  expect(new second.BookingCapReached('email', 2)).toBeInstanceOf(first.BookingCapReached);
  expect(new messages.CalendarsUnreadable()).toBeInstanceOf(otherMessages.CalendarsUnreadable);
  expect(new otherDraft.PublishRefused('no')).toBeInstanceOf(draft.PublishRefused);
  expect(new first.SlotTaken().message).toBe('That time was just taken.');
});
