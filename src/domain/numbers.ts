/**
 * A whole number as an English text writes it, its thousands grouped: 5000 is "5,000", as
 * `toLocaleString('en-GB')` writes it. Without Intl: its first use in a page sets up the browser's
 * locale data, 50 to 90 ms of a slow phone's main thread (CPU x4), which the enquiry form's module
 * paid as it loaded, at the visitor's first touch of the form, and every server at its start. The
 * one way the site writes a count: the forms, the editor's image sizes, /speed and the staff's reports.
 */
export const grouped = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ',');
