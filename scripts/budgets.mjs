// The JavaScript budgets, gzip bytes: `npm run size` (scripts/size.mjs) reports against them and the
// size test (tests/e2e/size.spec.ts) holds every page to the first two.

/**
 * What a page loads before it is idle, untouched: everything that can compete with the first paint
 * and the first tap (inline scripts included; field data apart).
 */
export const BEFORE_IDLE_BUDGET = 5 * 1024;
/**
 * Field data's script (/field-vitals.js, web-vitals inside), loaded once the page has loaded and is
 * idle; never earlier. web-vitals' authors ask for it to come after the code that serves the user.
 */
export const FIELD_DATA_BUDGET = 4 * 1024;
/** Everything a page can load once every widget has been used (field data apart). */
export const EVERYTHING_BUDGET = 90 * 1024;
/** The service worker (/sw.js), fetched once per build rather than by each page. */
export const WORKER_BUDGET = 15 * 1024;
/** What the dialog's time step adds, loaded only when a visitor asks for a time. */
export const TIME_STEP_BUDGET = 25 * 1024;

/** The pages measured: each page kind, and two service pages (one with the testimonials' carousel, /kotlin without). */
export const BUDGET_ROUTES = [
  '/',
  '/iphone',
  '/kotlin',
  '/about',
  '/service',
  '/portfolio',
  '/contact',
  '/thankyou',
  '/schedule',
];

/** Field data's script, by its fixed address (src/integrations/standalone-script.ts). */
export const isFieldData = (url) => new URL(url).pathname === '/field-vitals.js';
