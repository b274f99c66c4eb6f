/**
 * The tap benchmarks' timer (bench-tap.mjs, bench-times.mjs), put in a page before its own scripts
 * (through the browser's devtools protocol, which the page's CSP does not govern):
 * `window.__bench.arm(state, type)` times from the next `type` event's timeStamp to the first frame
 * in which `states[state]()`, a string of what the widget shows, has changed (null after `limitMs`);
 * `window.__bench.settled(state)` waits until that string has stopped changing (a slide's move over).
 *
 * `states` is a function that makes those states in the page. Both are handed over as their text:
 * `page.addInitScript({ content: frameTimer(states) })`.
 */
export const frameTimer = (states, limitMs = 30_000) => `(${install})(${states}, ${limitMs});`;

function install(makeStates, limitMs) {
  const states = makeStates();
  window.__bench = {
    /**
     * Resolves once `states[state]()` has stayed the same for `frames` frames in a row (at rest), or
     * after `limitMs` (a widget that never rests, a slide show rotating, must not stop the bench).
     */
    settled(state, frames = 10) {
      return new Promise((resolve) => {
        const start = performance.now();
        let last = states[state]();
        let still = 0;
        const frame = () =>
          requestAnimationFrame(() => {
            const now = states[state]();
            still = now === last ? still + 1 : 0;
            last = now;
            if (still >= frames || performance.now() - start > limitMs) resolve();
            else frame();
          });
        frame();
      });
    },
    arm(state, type) {
      const before = states[state]();
      this.result = new Promise((resolve) => {
        addEventListener(
          type,
          (event) => {
            const start = event.timeStamp;
            const frame = () =>
              requestAnimationFrame(() => {
                if (states[state]() !== before) resolve(performance.now() - start);
                else if (performance.now() - start > limitMs) resolve(null);
                else frame();
              });
            frame();
          },
          { capture: true, once: true },
        );
      });
    },
  };
}
