/**
 * The marketer's own time zone, for History (../dev-server/history/): the tab tells the dev server
 * its zone in a cookie, so that the History pages it renders say "today 09:23" in the marketer's
 * time, not the server's. A History page made before the cookie was set (or in another zone) has its
 * times written again here, in the tab's own zone, with the same words (../time-words.ts).
 */
import { TIME_ZONE_COOKIE, timeWords } from '../time-words.ts';

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
if (zone)
  document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; Path=/keystatic; SameSite=Strict; Max-Age=31536000`;

/** The times of a History page, in the tab's zone, if the page was made in another. */
function rewriteTimes() {
  const made = document.documentElement.dataset.timeZone;
  if (!made || made === zone) return;
  for (const time of document.querySelectorAll<HTMLTimeElement>('time[data-at]')) {
    const at = Number(time.dataset.at);
    if (!Number.isFinite(at)) continue;
    const order = Number(time.dataset.order);
    time.textContent = timeWords(at, {
      timeZone: zone,
      seconds: time.dataset.seconds !== undefined,
      ...(order > 0 && { order }),
    });
  }
  document.documentElement.dataset.timeZone = zone;
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', rewriteTimes);
else rewriteTimes();
