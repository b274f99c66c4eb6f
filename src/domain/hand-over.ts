/**
 * The hand-over between a widget's first move (the small inline script beside its markup that
 * answers a tap before React arrives) and its island: the data attributes that both read and write,
 * and that the stylesheets and tests select, and the events one sends the other. Named here once;
 * stylesheets cannot import, so tests/unit/hand-over.test.ts checks that they select only these.
 *
 * String constants only: the bundler writes their values in where they are used (`inlineConst` in
 * astro.config.mjs), so a first move that imports this module still imports nothing once built, and
 * Astro keeps it inline in the page, where it answers the first tap without a request of its own.
 */

/** On an island's root once React has taken it over (use-take-over.ts): its first move then leaves it alone. */
export const HYDRATED = 'data-hydrated';

/** On the links that open the Schedule a Call dialog (they lead to /schedule without JavaScript). */
export const SCHEDULE_CALL = 'data-schedule-call';
/** On the Schedule a Call dialog for the frame of the tap that opens it: its form is drawn a frame later. */
export const OPENING = 'data-opening';
/**
 * An event a first move or an island sends a closed modal dialog (the lightbox, Schedule a Call once
 * hydrated) to have it opened by the page's first move (BaseLayout.astro): shown in the frame of the
 * tap, made modal once that frame has painted.
 */
export const OPEN_MODAL = 'first-move:open-modal';
/** On a dialog's close button. */
export const DIALOG_CLOSE = 'data-dialog-close';
/** On the dialog's 'Choose a time for the call' link. */
export const CHOOSE_TIME = 'data-choose-time';
/** Set on that link when it was tapped before the time step's code arrived: the step opens when it does. */
export const REQUESTED = 'data-requested';
/** On a form posted natively before its island hydrated: a second submit is held until the page is shown again. */
export const SENT = 'data-sent';

/** On a carousel's previous / next control; its value is the step, '-1' or '1'. */
export const CAROUSEL_STEP = 'data-carousel-step';
/** On a carousel's pause control, whose aria-pressed the island adopts. */
export const CAROUSEL_PAUSE = 'data-carousel-pause';
/** On a carousel's viewport while a first-move scroll is under way: where it is heading (px). */
export const SCROLL_TO = 'data-to';

/** On the lightbox's previous / next control; its value is the step, '-1' or '1'. */
export const LIGHTBOX_STEP = 'data-lightbox-step';
/**
 * On each project of the gallery and on the lightbox: the project's position (the one shown, on the
 * lightbox, whose picture the first move puts in as it changes, whichever side set it).
 */
export const PROJECT_INDEX = 'data-index';
/** On each project of the gallery: its tags, which the filter's CSS matches. */
export const PROJECT_TAGS = 'data-tags';

/** The first move's list of those first days' times, after the time step's island, until it takes over. */
export const FIRST_TIMES = 'data-first-times';
