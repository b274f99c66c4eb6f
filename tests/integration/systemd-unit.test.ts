/**
 * deploy/agency-site.service as systemd reads it: `systemd-analyze verify` accepts it without a
 * word (a misspelt key or value is only a warning there, so any output fails). Skipped, saying so,
 * where systemd is not installed.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const installed = spawnSync('systemd-analyze', ['--version']).status === 0;

describe.skipIf(!installed)(
  `deploy/agency-site.service${installed ? '' : ' (skipped: systemd-analyze is not installed; apt-get install -y systemd)'}`,
  () => {
    it('passes systemd-analyze verify with no warning', () => {
      const verify = spawnSync('systemd-analyze', ['verify', 'deploy/agency-site.service'], {
        encoding: 'utf8',
      });
      expect(verify.stderr + verify.stdout).toBe('');
      expect(verify.status).toBe(0);
    });
  },
);
