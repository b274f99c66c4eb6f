/**
 * deploy/'s systemd units as systemd reads them: `systemd-analyze verify` accepts each without a
 * word (a misspelt key or value is only a warning there, so any output fails): the site's service,
 * and the daily backup's service with the timer that starts it (verified together, as the timer
 * needs its service). `systemd-analyze security --offline` rates both sandboxes: files each makes
 * private to it (UMask), and an overall exposure of 1.2 at most for the site ("OK"; it was 7.9,
 * "EXPOSED", before the hardening), 1.1 for the backup (7.9 too before it had the site's sandbox).
 * systemd's own reading of each (`systemd --test`) makes the state folder they share 0700 at every
 * start of either. Skipped, saying so, where systemd is not installed, or is too old (before 250)
 * to rate a unit file offline.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const unit = 'deploy/agency-site.service';
const backupUnit = 'deploy/agency-site-backup.service';
const installed = spawnSync('systemd-analyze', ['--version']).status === 0;
const security = (file: string) =>
  spawnSync('systemd-analyze', ['security', '--offline=yes', file], { encoding: 'utf8' });
const ratesOffline = installed && !/unrecognized option/.test(security(unit).stderr);

/**
 * The highest exposure each unit may be rated: what its hardening reached (systemd 252). The
 * site's 1.2 is 1.1 with lowering its own priority (setpriority, ioprio_set: a publish's build runs
 * at nice 19, idle I/O), the one part of @resources it takes back; raising it needs a capability it
 * has not. The backup takes nothing back: systemd sets its Nice and I/O class before the filter.
 */
const MOST_EXPOSURE: [string, number][] = [
  [unit, 1.2],
  [backupUnit, 1.1],
];

const systemd = ['/usr/lib/systemd/systemd', '/lib/systemd/systemd'].find((path) =>
  existsSync(path),
);

/**
 * A unit's settings as systemd itself has read them (`systemd --test` dumps every unit it loads),
 * or undefined where it cannot say. It refuses to run as root: root runs it as nobody, the unit
 * copied where nobody can read it.
 */
function asSystemdReads(file: string): string | undefined {
  if (!systemd) return undefined;
  const name = basename(file);
  const folder = mkdtempSync(join(tmpdir(), 'units-'));
  try {
    chmodSync(folder, 0o755);
    copyFileSync(file, join(folder, name));
    chmodSync(join(folder, name), 0o644);
    // The folder first, then systemd's own (the trailing colon), for the targets the unit names.
    const command = ['env', `SYSTEMD_UNIT_PATH=${folder}:`, systemd, '--test', '--system'];
    const args = [...command, `--unit=${name}`, '--no-pager'];
    const dump =
      process.getuid?.() === 0
        ? spawnSync('runuser', ['-u', 'nobody', '--', ...args], { encoding: 'utf8' })
        : spawnSync(args[0]!, args.slice(1), { encoding: 'utf8' });
    return dump.stdout?.split(/^\t-> Unit /m).find((block) => block.startsWith(`${name}:\n`));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
const readsUnits = installed && asSystemdReads(unit) !== undefined;

describe.skipIf(!installed)(
  `deploy/'s systemd units${installed ? '' : ' (skipped: systemd-analyze is not installed; apt-get install -y systemd)'}`,
  () => {
    it.each([[[unit]], [[backupUnit, 'deploy/agency-site-backup.timer']]])(
      '%s pass systemd-analyze verify with no warning',
      (units) => {
        const verify = spawnSync('systemd-analyze', ['verify', ...units], { encoding: 'utf8' });
        expect(verify.stderr + verify.stdout).toBe('');
        expect(verify.status).toBe(0);
      },
    );

    it.skipIf(!ratesOffline).each(MOST_EXPOSURE)(
      `%s is rated %s or less by systemd-analyze security --offline, its files private${ratesOffline ? '' : ' (skipped: this systemd-analyze cannot rate a unit file offline)'}`,
      (file, most) => {
        const { stdout } = security(file);
        const level = /Overall exposure level for [\w.-]+: ([\d.]+)/.exec(stdout);
        expect(level, stdout).not.toBeNull();
        expect(Number(level![1])).toBeLessThanOrEqual(most);
        expect(stdout).toMatch(/✓ UMask=/);
      },
    );

    // systemd sets a state folder's mode at each start of a unit that names it: a backup that left
    // it at the default (0755) opened the store's folder until the site restarted.
    it.skipIf(!readsUnits).each([unit, backupUnit])(
      `%s: systemd makes /var/lib/agency-site 0700 as it starts${readsUnits ? '' : ' (skipped: systemd --test cannot read the unit here)'}`,
      (file) => {
        const settings = asSystemdReads(file);
        expect(settings).toMatch(/^\t\tStateDirectory: agency-site$/m);
        expect(settings).toMatch(/^\t\tStateDirectoryMode: 0700$/m);
      },
    );
  },
);
