import { useEffect, useRef, useState } from 'react';
import {
  byDate,
  clock,
  dateIn,
  dayLabel,
  firstFrom,
  formatIn,
  readingLocale,
  zoneCity,
  zoneLabel,
  zoneName,
} from '../domain/call-times';
import type { Slot } from '../domain/booking';
import { endpoints, FIRST_FREE_TIMES, type FreeTimesAnswer } from '../domain/api';
import css from '../styles/time-choice.css?inline';

interface Props {
  /** The id of its first control, which the error summary links to. */
  id: string;
  error?: string;
  /** The free times nearest to one that was just taken, from the server's refusal. */
  alternatives?: Slot[];
  /** The start of the time chosen, if any. */
  chosen?: string;
  onChoose(slot: Slot | null): void;
  /** 'Just send a message': the visitor leaves the time out (no such button without it). */
  onCancel?(): void;
  /** The free times, when the page has them already (a call's change page): nothing is fetched. */
  given?: { agencyZone: string; slots: Slot[] };
  /** The zone to show the times in: the visitor's own (their browser's) unless given. */
  zone?: string;
  /**
   * The locale the times are written in: the visitor's browser's unless given (a call's change page
   * gives the one stored with the booking, so that its server's rendering and the browser's agree).
   */
  locale?: string;
  /** The day it opens on (a calendar date), or the first free after it: the first free when not given. */
  openOn?: string;
  /** Whether its first control takes the focus once shown (it replaced the link that opened it). */
  focusOnOpen?: boolean;
  /** What it says when no time is free: its page's words (a call's change page: its content's). */
  noneFree: string;
}

type Loaded =
  | { status: 'loading' }
  | { status: 'failed' }
  | { status: 'closed'; message: string }
  | { status: 'ready'; agencyZone: string; slots: Slot[] };

const visitorZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const browserLocale = () => (typeof navigator === 'undefined' ? undefined : navigator.language);

/** The constructed stylesheet of its styles, once a picker has shown (see useStyles). */
let sheet: CSSStyleSheet | undefined;

/**
 * Its styles, added once when it first shows: they come with its code, not in every page's
 * first response, and as text, so that loading it needs no stylesheet request (nor the helper
 * that would wait for one). As a constructed stylesheet, not a <style> element: the pages' CSP
 * allows no inline style but the page's own, and CSSOM is not inline style. A browser without
 * constructed stylesheets (Safari before 16.4) gets the element, which such a policy refuses: the
 * picker then works unstyled.
 */
function useStyles() {
  useEffect(() => {
    if (sheet || document.getElementById('time-choice-styles')) return;
    if ('adoptedStyleSheets' in document && 'replaceSync' in CSSStyleSheet.prototype) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      return;
    }
    const style = document.createElement('style');
    style.id = 'time-choice-styles';
    style.textContent = css;
    document.head.append(style);
  }, []);
}

/**
 * The dialog's optional step: a day, then a free time on it, shown in the visitor's own time zone
 * (and the agency's, where it differs). The times come from the server (/schedule/slots.json); the
 * chosen one is the form's `slot`, sent with the visitor's zone so that their e-mail uses it.
 */
export default function TimePicker({
  id,
  error,
  alternatives,
  chosen,
  onChoose,
  onCancel,
  given,
  zone = visitorZone(),
  locale = readingLocale(browserLocale()),
  focusOnOpen = true,
  openOn,
  noneFree,
}: Props) {
  useStyles();
  const [loaded, setLoaded] = useState<Loaded>(
    given ? { status: 'ready', ...given } : { status: 'loading' },
  );
  const [attempt, setAttempt] = useState(0);
  const [day, setDay] = useState('');
  const focused = useRef(false);

  // The link that opened this step is gone: focus moves to its first control once it is there.
  useEffect(() => {
    if (!focusOnOpen || loaded.status === 'loading' || focused.current) return;
    focused.current = true;
    document.getElementById(id)?.focus();
  }, [loaded.status]);

  useEffect(() => {
    if (given) return;
    let current = true;
    let whole = false;
    const show = (body: FreeTimesAnswer) => {
      if (!current) return;
      if (!body.open) setLoaded({ status: 'closed', message: body.message });
      else setLoaded({ status: 'ready', agencyZone: body.timeZone, slots: body.slots });
    };
    // After a refusal the list is fetched afresh: the time just taken must not be offered again.
    const afresh = !!(alternatives || attempt);
    // The first days, asked for by the page as the dialog was reached for (BaseLayout), show as soon
    // as they are there, unless every day has come first.
    const first = afresh
      ? undefined
      : (window as unknown as Record<string, Promise<FreeTimesAnswer> | undefined>)[
          FIRST_FREE_TIMES
        ];
    if (first)
      first.then(
        (body) => whole || show(body),
        () => {},
      );
    else setLoaded({ status: 'loading' });
    fetch(endpoints.freeTimes, afresh ? { cache: 'no-store' } : {})
      .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
      .then(
        (body: FreeTimesAnswer) => {
          whole = true;
          show(body);
        },
        // The first days stay if they came; the rest could not.
        () =>
          current &&
          setLoaded((shown) => (shown.status === 'ready' ? shown : { status: 'failed' })),
      );
    return () => {
      current = false;
    };
  }, [alternatives, attempt]);

  // Nothing is free: a time chosen earlier is not one now, and the form must not offer to book it.
  const nothingFree = loaded.status === 'ready' && !loaded.slots.length && !alternatives?.length;
  useEffect(() => {
    if (nothingFree && chosen) onChoose(null);
  }, [nothingFree, chosen]);

  // What the form sends whatever this step shows: the visitor's zone and locale, and the time chosen
  // when none of the radio buttons shown carries it (the times still loading after one was chosen
  // among the first days, before this step's code came; or that time no longer among those offered).
  // The button says "Book this call" whenever a time is chosen: a press books it, or hears why not
  // (just taken, with the nearest free ones), and never sends a message instead.
  const carried = (shown: readonly Slot[]) => (
    <>
      {chosen && !shown.some((slot) => slot.start === chosen) && (
        <input type="hidden" name="slot" value={chosen} />
      )}
      <input type="hidden" name="time_zone" value={zone} />
      <input type="hidden" name="locale" value={locale} />
    </>
  );

  const cancel = onCancel && (
    <button type="button" className="button button--secondary" onClick={onCancel}>
      Just send a message
    </button>
  );

  if (loaded.status === 'loading') {
    return (
      <>
        <p role="status">Loading the free times…</p>
        {carried([])}
      </>
    );
  }
  if (loaded.status === 'failed' || loaded.status === 'closed') {
    return (
      <div className="time-choice" role="status" id={id} tabIndex={-1}>
        <p>
          {loaded.status === 'closed'
            ? loaded.message
            : 'The free times could not be loaded. Check your connection and try again, or just send a message and we will reply to arrange a time.'}
        </p>
        <div className="time-choice__actions">
          {loaded.status === 'failed' && (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setAttempt((n) => n + 1)}
            >
              Try again
            </button>
          )}
          {cancel}
        </div>
        {carried([])}
      </div>
    );
  }

  const { agencyZone, slots } = loaded;
  // The nearest free times are listed on their own; each time has one radio button.
  const byDay = byDate(slots, zone, alternatives);
  const days = [...byDay.keys()];
  // The day chosen, else the chosen time's (a time chosen before this picker took over), else the
  // one it opens on (a call's change page: the call's own), else the first.
  const chosenDay = chosen ? dateIn(chosen, zone) : '';
  const shownDay = byDay.has(day)
    ? day
    : byDay.has(chosenDay)
      ? chosenDay
      : firstFrom(days, openOn ?? '');
  const sameZone =
    clock('2026-01-15T12:00:00Z', zone) === clock('2026-01-15T12:00:00Z', agencyZone) &&
    clock('2026-07-15T12:00:00Z', zone) === clock('2026-07-15T12:00:00Z', agencyZone);
  const errorId = `${id}-error`;
  const timeOption = (slot: Slot, withDay = false) => (
    <label className="time-choice__time" key={slot.start}>
      <input
        type="radio"
        name="slot"
        value={slot.start}
        checked={chosen === slot.start}
        onChange={() => onChoose(slot)}
      />
      <span>
        {withDay &&
          formatIn(slot.start, zone, { weekday: 'short', day: 'numeric', month: 'short' }, locale)}
        {withDay && ' '}
        {clock(slot.start, zone, locale)}
        {!sameZone && (
          <small>
            {clock(slot.start, agencyZone, locale)}
            {/* Its own day where the office's date is another: '8:00 pm Mon in London'. */}
            {dateIn(slot.start, agencyZone) !== dateIn(slot.start, zone) &&
              ` ${formatIn(slot.start, agencyZone, { weekday: 'short' }, locale)}`}{' '}
            in {zoneCity(agencyZone)}
          </small>
        )}
      </span>
    </label>
  );

  return (
    <fieldset className="time-choice" aria-describedby={error ? errorId : undefined}>
      <legend>Time for the call</legend>
      <p className="time-choice__zone">
        Times are in your time zone, {zoneLabel(zone, locale)}.
        {!sameZone && ` We are in ${zoneCity(agencyZone)}: ${zoneName(agencyZone, locale)}.`}
      </p>
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
      {carried([...(alternatives ?? []), ...(byDay.get(shownDay) ?? [])])}
      {alternatives && alternatives.length > 0 && (
        <fieldset className="time-choice__day">
          <legend>Nearest free times</legend>
          <div className="time-choice__grid">
            {alternatives.map((slot) => timeOption(slot, true))}
          </div>
        </fieldset>
      )}
      {days.length === 0 ? (
        <p id={id} tabIndex={-1}>
          {noneFree}
        </p>
      ) : (
        <>
          <div className="field">
            <label htmlFor={id}>Day</label>
            <select
              id={id}
              value={shownDay}
              onChange={(event) => {
                setDay(event.target.value);
                onChoose(null);
              }}
            >
              {days.map((key) => (
                <option key={key} value={key}>
                  {dayLabel(byDay.get(key)![0]!.start, zone, locale)}
                </option>
              ))}
            </select>
          </div>
          <fieldset className="time-choice__day">
            <legend>Free times on {dayLabel(byDay.get(shownDay)![0]!.start, zone, locale)}</legend>
            <div className="time-choice__grid">
              {byDay.get(shownDay)!.map((slot) => timeOption(slot))}
            </div>
          </fieldset>
        </>
      )}
      {cancel && <div className="time-choice__actions">{cancel}</div>}
    </fieldset>
  );
}
