/**
 * deploy/'s systemd units as systemd reads them: `systemd-analyze verify` accepts each without a
 * word (a misspelt key or value is only a warning there, so any output fails): the site's service,
 * and the daily backup's service with the timer that starts it (verified together, as the timer
 * needs its service). `systemd-analyze security --offline` rates the site's sandbox: files it makes
 * private to it (UMask), and an overall exposure of 1.3 at most ("OK"; it was 7.9, "EXPOSED", before
 * the hardening). Skipped, saying so, where systemd is not installed, or is too old (before 250) to
 * rate a unit file offline.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const unit = 'deploy/agency-site.service';
const installed = spawnSync('systemd-analyze', ['--version']).status === 0;
const security = () =>
  spawnSync('systemd-analyze', ['security', '--offline=yes', unit], { encoding: 'utf8' });
const ratesOffline = installed && !/unrecognized option/.test(security().stderr);

/**
 * The highest exposure the unit may be rated: what its hardening reached (systemd 252), 1.1, and
 * 0.2 for lowering its own priority (setpriority, ioprio_set: a publish's build runs at nice 19,
 * idle I/O), the one part of @resources it takes back; raising it needs a capability it has not.
 */
const MOST_EXPOSURE = 1.3;

describe.skipIf(!installed)(
  `deploy/'s systemd units${installed ? '' : ' (skipped: systemd-analyze is not installed; apt-get install -y systemd)'}`,
  () => {
    it.each([[[unit]], [['deploy/agency-site-backup.service', 'deploy/agency-site-backup.timer']]])(
      '%s pass systemd-analyze verify with no warning',
      (units) => {
        const verify = spawnSync('systemd-analyze', ['verify', ...units], { encoding: 'utf8' });
        expect(verify.stderr + verify.stdout).toBe('');
        expect(verify.status).toBe(0);
      },
    );

    it.skipIf(!ratesOffline)(
      `${unit} is rated ${MOST_EXPOSURE} or less by systemd-analyze security --offline, its files private${ratesOffline ? '' : ' (skipped: this systemd-analyze cannot rate a unit file offline)'}`,
      () => {
        const { stdout } = security();
        const level = /Overall exposure level for agency-site\.service: ([\d.]+)/.exec(stdout);
        expect(level, stdout).not.toBeNull();
        expect(Number(level![1])).toBeLessThanOrEqual(MOST_EXPOSURE);
        expect(stdout).toMatch(/✓ UMask=/);
      },
    );
  },
);
