/**
 * Embla's `duration` is not a time: its scroll body is a damped spring that
 * moves `velocity += distance / duration; velocity *= friction` once per
 * 1/60 s. This finds the duration whose scroll settles (within half a pixel of
 * a 1000 px move) in the given number of milliseconds, by running the same
 * integrator.
 */
const stepMs = 1000 / 60;
const friction = 0.68; // Embla's default, which the carousel keeps

export function settleTime(duration: number, distance = 1000): number {
  let location = 0;
  let velocity = 0;
  let steps = 0;
  while (Math.abs(distance - location) > 0.5 && steps < 10_000) {
    velocity += (distance - location) / duration;
    velocity *= friction;
    location += velocity;
    steps += 1;
  }
  return steps * stepMs;
}

export function emblaDuration(ms: number): number {
  let low = 1;
  let high = 200;
  while (high - low > 0.01) {
    const mid = (low + high) / 2;
    if (settleTime(mid) < ms) low = mid;
    else high = mid;
  }
  return Math.round(((low + high) / 2) * 10) / 10;
}
