/**
 * Paces the field data this process takes in: at most `perSecond` beacons a second, each later one
 * waiting its turn, so that a burst of visits (or a flood) is spread out rather than taking the
 * CPU an enquiry needs. A beacon's sender does not wait for the answer (navigator.sendBeacon), so
 * a short wait costs a visitor nothing. Past `maxWaiting`, or a wait of more than `maxWaitMs`, it
 * is refused at once (503), before its body is read.
 */
export class Pacer {
  readonly #intervalMs: number;
  readonly #maxWaitMs: number;
  /** When the next beacon may start: the end of the queue, in ms. */
  #next = 0;

  constructor(perSecond: number, maxWaitMs = 1000) {
    this.#intervalMs = 1000 / perSecond;
    this.#maxWaitMs = maxWaitMs;
  }

  /** Resolves true when it is this beacon's turn, or false at once when the queue is too long. */
  async admit(now = performance.now()): Promise<boolean> {
    const start = Math.max(now, this.#next);
    const wait = start - now;
    if (wait > this.#maxWaitMs) return false;
    this.#next = start + this.#intervalMs;
    // Under a millisecond, a timer would wait longer than the turn: go now.
    if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
    return true;
  }
}
