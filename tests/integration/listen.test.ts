/**
 * A server that cannot listen says why in one line of its log (readable, or JSON with
 * LOG_FORMAT=json), naming the address and the likely cause, and exits 1: a port another process
 * holds, a port under 1024 for a user that may not take one, an address that is not this machine's,
 * a PORT, SITE_URL, ALLOWED_ORIGINS, DATABASE_URL or SMTP_URL that is not one.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../support/server';

const held: Server[] = [];
afterEach(async () => {
  await Promise.all(held.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** Another process's listener, as a site already running would hold the port. */
async function holdPort(port: number) {
  const server = createServer();
  held.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
}

/**
 * A store's path in a folder of its own, owned by the user the server runs as: not ./data, where a
 * site started in this clone (`npm start`) leaves key files only its own user may read, which
 * stopped the server as `nobody` before it tried the port.
 */
function storeOf(uid?: number, gid?: number) {
  const folder = mkdtempSync(join(tmpdir(), 'listen-'));
  folders.push(folder);
  if (uid !== undefined) chownSync(folder, uid, gid ?? uid);
  return join(folder, 'enquiries.sqlite');
}
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Starts the server as `npm run serve` would (src/server/main.ts), until it exits. */
async function serve(env: Record<string, string>, options: { uid?: number; gid?: number } = {}) {
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      LOG_FORMAT: '',
      ENQUIRY_DB: storeOf(options.uid, options.gid),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = await once(child, 'exit');
  return { code, stdout, stderr };
}

describe('a server that cannot listen', () => {
  it('on a port another process holds: one line naming the address and the likely cause, exit 1', async () => {
    const port = await freePort();
    await holdPort(port);
    const readable = await serve({ PORT: String(port) });
    expect(readable).toEqual({
      code: 1,
      stdout: '',
      stderr: `Cannot serve the site: another process listens on 127.0.0.1:${port}: is the site already running? (Stop it, or set PORT.)\n`,
    });

    const json = await serve({ PORT: String(port), LOG_FORMAT: 'json' });
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('');
    const lines = json.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: 'error',
      msg: `Cannot serve the site: another process listens on 127.0.0.1:${port}: is the site already running? (Stop it, or set PORT.)`,
    });
  });

  it('on settings it cannot use: says which in one line, repeating no address, exit 1', async () => {
    // Node's own answer to each was a stack trace, a RangeError's or an invalid URL's with the
    // address in it; DATABASE_URL's was looked up as a host, the site served without its store;
    // SMTP_URL's was read as this machine's port 587, every e-mail retried in vain; a slip in
    // ENQUIRY_TO or ENQUIRY_FROM had the mail server refuse every e-mail.
    expect(await serve({ PORT: '99999' })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'PORT is not a port number: set it to a whole number from 1 to 65535 (4321 when unset).\n',
    });
    const addresses = await serve({
      PORT: String(await freePort()),
      SITE_URL: 'www.example.com',
      ALLOWED_ORIGINS: 'https://a.example, partner',
      DATABASE_URL: 'postgres//site:s3cret@db.internal/agency',
      SMTP_URL: 'smtp//website:s3cret@mail.internal:587',
      ENQUIRY_TO: 'sales@',
      ENQUIRY_FROM: 'Website <website@mail>',
    });
    expect(addresses.code).toBe(1);
    expect(addresses.stdout).toBe('');
    const line = addresses.stderr;
    expect(line.trimEnd().split('\n')).toHaveLength(1);
    expect(line).toContain('DATABASE_URL is not a PostgreSQL address');
    expect(line).toContain('SITE_URL is not an http(s) address');
    expect(line).toContain('An entry of ALLOWED_ORIGINS is not an http(s) address');
    expect(line).toContain('SMTP_URL is not a mail server address');
    expect(line).toContain('ENQUIRY_TO is not an e-mail address');
    expect(line).toContain('ENQUIRY_FROM is not an e-mail address');
    expect(line).not.toMatch(/s3cret|\.internal|partner/);
  });

  it('on an address that is not this machine’s: says so, exit 1', async () => {
    const result = await serve({ HOST: '192.0.2.1', PORT: String(await freePort()) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^Cannot serve the site: 192\.0\.2\.1:\d+ is not an address of this machine \(HOST\)\.\n$/,
    );
  });

  // Ports under 1024 are refused to a user without the capability, where the kernel says so
  // (ip_unprivileged_port_start); as root, the server is started as `nobody` to see it.
  const unprivilegedFrom = Number(
    readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8'),
  );
  const root = process.getuid?.() === 0;
  it.skipIf(unprivilegedFrom <= 1023)(
    'on a port under 1024 for a user who may not take it: one line saying so, exit 1',
    async () => {
      const result = await serve(
        { PORT: '1023', LOG_FORMAT: 'json' },
        root ? { uid: 65534, gid: 65534 } : {},
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('');
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        level: 'error',
        msg: 'Cannot serve the site: this user may not listen on 127.0.0.1:1023 (ports under 1024 need root or CAP_NET_BIND_SERVICE): set PORT to 1024 or above, behind a proxy.',
      });
    },
  );
});
