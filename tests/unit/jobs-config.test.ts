/**
 * The queue of jobs' settings as the server reads them: JOBS_* by default, and the names they had
 * while the queue was called the outbox (OUTBOX_*), still read, each with one line for the log at
 * start that names the new name; the new name wins when both are set.
 */
import { describe, expect, it } from 'vitest';
import {
  JOBS_LEASE_MS,
  JOBS_POLL_MS,
  JOBS_RETRY_BASE_MS,
  JOBS_RETRY_MAX_MS,
  readConfig,
} from '../../src/server/config';

describe('the queue of jobs’ settings', () => {
  it('are the defaults with nothing set, and nothing to warn about', () => {
    const config = readConfig({});
    expect(config.jobs).toEqual({
      pollMs: JOBS_POLL_MS,
      retryBaseMs: JOBS_RETRY_BASE_MS,
      retryMaxMs: JOBS_RETRY_MAX_MS,
      leaseMs: JOBS_LEASE_MS,
    });
    expect(config.warnings).toEqual([]);
  });

  it('are read by their names', () => {
    const config = readConfig({
      JOBS_POLL_MS: '100',
      JOBS_RETRY_BASE_MS: '200',
      JOBS_RETRY_MAX_MS: '3000',
      JOBS_LEASE_MS: '900',
    });
    expect(config.jobs).toEqual({ pollMs: 100, retryBaseMs: 200, retryMaxMs: 3000, leaseMs: 900 });
    expect(config.warnings).toEqual([]);
  });

  it('are read by their old names too, each with a warning that names the new one', () => {
    const config = readConfig({
      OUTBOX_POLL_MS: '100',
      OUTBOX_RETRY_BASE_MS: '200',
      OUTBOX_RETRY_MAX_MS: '3000',
      OUTBOX_LEASE_MS: '900',
    });
    expect(config.jobs).toEqual({ pollMs: 100, retryBaseMs: 200, retryMaxMs: 3000, leaseMs: 900 });
    expect(config.warnings).toEqual([
      'OUTBOX_POLL_MS is now called JOBS_POLL_MS: it is still read, but rename it.',
      'OUTBOX_RETRY_BASE_MS is now called JOBS_RETRY_BASE_MS: it is still read, but rename it.',
      'OUTBOX_RETRY_MAX_MS is now called JOBS_RETRY_MAX_MS: it is still read, but rename it.',
      'OUTBOX_LEASE_MS is now called JOBS_LEASE_MS: it is still read, but rename it.',
    ]);
  });

  it('take the new name over the old when both are set, and say the old one is not used', () => {
    const config = readConfig({ JOBS_LEASE_MS: '900', OUTBOX_LEASE_MS: '5' });
    expect(config.jobs.leaseMs).toBe(900);
    expect(config.warnings).toEqual([
      'OUTBOX_LEASE_MS is set beside JOBS_LEASE_MS, which is used: remove OUTBOX_LEASE_MS.',
    ]);
  });

  it('keep their defaults for an old name set empty or to no number, without a warning for an empty one', () => {
    const config = readConfig({ OUTBOX_POLL_MS: '', OUTBOX_LEASE_MS: 'soon' });
    expect(config.jobs.pollMs).toBe(JOBS_POLL_MS);
    expect(config.jobs.leaseMs).toBe(JOBS_LEASE_MS);
    expect(config.warnings).toEqual([
      'OUTBOX_LEASE_MS is now called JOBS_LEASE_MS: it is still read, but rename it.',
    ]);
  });
});
