/**
 * Work that no visitor waits for (field data's script, the check for enquiries kept on the device),
 * from a script run as the page is parsed: once the page has loaded, a second has passed and the
 * browser is idle, or 2 s later on a phone that never is (without a timeout an idle callback waits
 * for ever there: one load of /portfolio in ten, in headless Chromium). Not at the load itself: a
 * visitor who taps as soon as the page shows taps then, and on a slow phone each of these tasks (6 to
 * 13 ms under a CPU slowed x4) held that tap's answer (docs/benchmarks.md, "Nothing at the load").
 */
export const whenSettled = (run: () => void) =>
  addEventListener('load', () =>
    setTimeout(
      () => ('requestIdleCallback' in window ? requestIdleCallback(run, { timeout: 2000 }) : run()),
      1000,
    ),
  );
