/**
 * A call request (the Schedule a Call dialog's POST /send-mail.php, and /schedule) through the
 * pipeline: name, e-mail and message, and optionally a time (`slot`, a start from the free slots)
 * that books the call, with the booking rules: booking open, a time offered and outside the notice.
 */
import { handle, type Checked } from './pipeline.ts';
import { first } from '../requests/body.ts';
import type { PostVerdict } from '../requests/post-gate.ts';
import { nearest, offeredSlot, offeredTimes, refusal } from '../booking/free-times.ts';
import { bookingClosedMessage } from '../booking/messages.ts';
import { reminderLeads } from '../../domain/reminders.ts';
import { currentFreeHosts, currentFreeSlots } from '../booking/queries.ts';
import type { OpenServices } from '../booking/services.ts';
import { isTimeZone, type Availability } from '../../domain/booking.ts';
import { acceptedLocale, visitorLocale } from '../../domain/call-times.ts';
import {
  callRequestInput,
  validateCallRequest,
  type BookingField,
  type CallRequest,
} from '../../domain/call-form.ts';
import type { FieldErrors } from '../../domain/forms.ts';

/** The call form's input, and the time asked for with the visitor's zone ('' when none). */
interface CallRequestInput extends CallRequest {
  slot: string;
  timeZone: string;
  /** The browser's locale (the dialog sends it), else the one its Accept-Language prefers. */
  locale: string;
}

export function handleCallRequest(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenServices,
  availability: Availability,
  { requireTime = false } = {},
) {
  return handle<BookingField, CallRequestInput>(
    {
      kind: 'call',
      captchaField: 'captcha',
      parse: (fields) => ({
        ...callRequestInput((name) => fields.get(name) ?? []),
        slot: first(fields, 'slot').trim(),
        timeZone: first(fields, 'time_zone').trim(),
        locale:
          first(fields, 'locale').trim() ||
          (acceptedLocale(request.headers.get('accept-language')) ?? ''),
      }),
      validate(input, { bookingSecret, config }) {
        const errors: FieldErrors<BookingField> = validateCallRequest(input);
        const data: Record<string, string> = {
          name: input.name.trim(),
          email: input.email.trim(),
          message: input.message.trim(),
        };
        const result = (call?: NonNullable<Checked<BookingField>['call']>) => ({
          name: data.name,
          email: data.email,
          data,
          errors,
          ...(call && { call }),
        });
        const wanted = input.slot;
        if (!wanted) {
          // /schedule is for booking: a visitor who chose no time is told, not sent a message.
          if (requireTime) errors.slot = 'Choose a time for the call.';
          return result();
        }
        data.slot = wanted;
        data.time_zone = isTimeZone(input.timeZone) ? input.timeZone : availability.timeZone;
        // How the prospect's e-mails write times: only a language and region are kept.
        const locale = visitorLocale(input.locale);
        if (locale) data.locale = locale;
        if (!bookingSecret) {
          errors.slot = bookingClosedMessage;
          return result();
        }
        const now = Date.now();
        const refused = refusal(availability, wanted, now);
        const call = refused ? undefined : offeredSlot(availability, wanted);
        if (!call) {
          errors.slot = refused ?? 'Choose one of the times offered.';
          return result();
        }
        // What the e-mails need, as it was when the call was booked.
        data.agency_time_zone = availability.timeZone;
        data.call_title = availability.callTitle;
        const share = config.unconfirmedShare;
        return result({
          ...call,
          reminders: reminderLeads(availability),
          // Calls waiting for confirmation hold at most this share of the window's times.
          ...(share !== undefined && {
            maxUnconfirmed: Math.floor(share * offeredTimes(availability, now)),
          }),
        });
      },
      taken: {
        field: 'slot',
        alternatives: async (wanted, service) =>
          nearest(await currentFreeSlots(availability, service), wanted.start),
      },
      hosts: (call, service) => currentFreeHosts(availability, call, service),
    },
    request,
    post,
    open,
  );
}
