import { describe, expect, it } from 'vitest';
import { emblaDuration, settleTime } from '../../src/client/embla-duration';

describe('the carousel transition time', () => {
  it.each([600, 1000, 3000])(
    'an Embla duration for %i ms settles within two frames of it',
    (ms) => {
      expect(Math.abs(settleTime(emblaDuration(ms)) - ms)).toBeLessThanOrEqual(2 * (1000 / 60));
    },
  );

  it("Embla's default duration (25) settles in about a second", () => {
    expect(settleTime(25)).toBeGreaterThan(900);
    expect(settleTime(25)).toBeLessThan(1200);
  });
});
