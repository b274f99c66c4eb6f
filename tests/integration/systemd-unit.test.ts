/**
 * deploy/'s systemd units as systemd reads them: `systemd-analyze verify` accepts each without a
 * word (a misspelt key or value is only a warning there, so any output fails): the site's service,
 * and the daily backup's service with the timer that starts it (verified together, as the timer
 * needs its service). Skipped, saying so, where systemd is not installed.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const installed = spawnSync('systemd-analyze', ['--version']).status === 0;

describe.skipIf(!installed)(
  `deploy/'s systemd units${installed ? '' : ' (skipped: systemd-analyze is not installed; apt-get install -y systemd)'}`,
  () => {
    it.each([
      [['deploy/agency-site.service']],
      [['deploy/agency-site-backup.service', 'deploy/agency-site-backup.timer']],
    ])('%s pass systemd-analyze verify with no warning', (units) => {
      const verify = spawnSync('systemd-analyze', ['verify', ...units], { encoding: 'utf8' });
      expect(verify.stderr + verify.stdout).toBe('');
      expect(verify.status).toBe(0);
    });
  },
);
