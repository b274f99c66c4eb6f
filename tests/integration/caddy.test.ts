/**
 * deploy/Caddyfile as a host runs it: Caddy (Debian's package) with `tls internal`, in front of two
 * server processes on one store. HTTPS over HTTP/2 with the site's own headers and precompressed
 * bodies; a form post counts the visitor, not Caddy; one client's slow bodies are held by Caddy,
 * not the processes, and a body over Caddy's limit is refused there; a process stopped mid-load (a
 * restart) loses no enquiry it acknowledged. Skipped, saying so, where `caddy` is not installed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_FIELD } from '../../src/domain/forms';
import { HSTS } from '../../src/server/http/server';
import {
  freePort,
  newDatabasePath,
  readStore,
  startServer,
  validEnquiry,
  type RunningServer,
} from '../support/server';

const caddyInstalled = spawnSync('caddy', ['version']).status === 0;
const name = caddyInstalled
  ? 'Caddy from deploy/Caddyfile'
  : 'Caddy from deploy/Caddyfile (skipped: caddy is not installed; apt-get install -y caddy)';

/** The visitor's address: another loopback address than Caddy's own, so that the two differ. */
const VISITOR = '127.0.0.2';
/** A client who sends slow bodies. */
const SLOW_CLIENT = '127.0.0.3';

/** Each process's MAX_CONNECTIONS. */
const PROCESS_CONNECTIONS = 20;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

describe.skipIf(!caddyInstalled)(name, () => {
  const home = mkdtempSync(join(tmpdir(), 'caddy-'));
  const database = newDatabasePath();
  let servers: RunningServer[] = [];
  let caddy: ChildProcess;
  let caddyLog = '';
  let origin: string;
  let httpsPort: number;
  let session: ClientHttp2Session;

  /** An HTTP/2 connection to Caddy from a client's address (the visitor's), trusting Caddy's CA. */
  const openSession = (from = VISITOR) => {
    const ca = readFileSync(join(home, 'data/caddy/pki/authorities/local/root.crt'));
    const opened = connect(origin, {
      createConnection: () =>
        tlsConnect({
          socket: netConnect({ host: '127.0.0.1', port: httpsPort, localAddress: from }),
          servername: 'localhost',
          ca,
          ALPNProtocols: ['h2'],
        }),
    });
    opened.on('error', () => {});
    return opened;
  };

  const request = (
    path: string,
    {
      method = 'GET',
      headers = {},
      body,
    }: { method?: string; headers?: object; body?: string } = {},
  ) =>
    new Promise<Answer>((resolve, reject) => {
      const stream = session.request({ ':method': method, ':path': path, ...headers });
      const chunks: Buffer[] = [];
      let head: Answer['headers'] = {};
      stream.on('response', (h) => (head = h));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () =>
        resolve({ status: Number(head[':status']), headers: head, body: Buffer.concat(chunks) }),
      );
      stream.on('error', reject);
      stream.end(body);
    });

  const postEnquiry = (fields: Record<string, string>, headers: object = {}) =>
    request('/php/email.php', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        origin,
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    });

  beforeAll(async () => {
    httpsPort = await freePort();
    origin = `https://localhost:${httpsPort}`;
    const env = {
      ENQUIRY_DB: database,
      TRUSTED_PROXIES: '127.0.0.1',
      SITE_URL: origin,
      // As docs/deploying.md sets it for several processes: three of Caddy's health checks.
      STOP_DRAIN_MS: '3000',
      // Few, so that one client's slow bodies, were Caddy to pass them on, would take them all.
      MAX_CONNECTIONS: String(PROCESS_CONNECTIONS),
    };
    servers = await Promise.all([startServer(env), startServer(env)]);
    const caddyEnv = {
      ...process.env,
      SITE_ADDRESS: origin,
      UPSTREAM: servers.map((s) => s.url.replace('http://', '')).join(' '),
      TLS: 'internal',
      HTTP_PORT: String(await freePort()),
      HTTPS_PORT: String(httpsPort),
      CADDY_ADMIN: 'off',
      // Its certificates and CA in a folder of the test's own.
      HOME: home,
      XDG_DATA_HOME: join(home, 'data'),
      XDG_CONFIG_HOME: join(home, 'config'),
    };
    const startCaddy = () => {
      caddyLog = '';
      caddy = spawn('caddy', ['run', '--config', 'deploy/Caddyfile', '--adapter', 'caddyfile'], {
        env: caddyEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      caddy.stdout!.on('data', (chunk) => (caddyLog += chunk));
      caddy.stderr!.on('data', (chunk) => (caddyLog += chunk));
    };
    startCaddy();
    // Caddy 2.6 (Debian 12's) cleans its storage as it starts, beside the making of its first
    // certificate. Once, in a fresh clone's run, the cleaning removed the certificate's folder while
    // its key was being written ("Deleting certificates/local/localhost because key is empty"), and
    // Caddy would try again in 60 s. Started again on the same folder, it finds its CA made and
    // makes the certificate: a host's first start meets the same and heals itself, later.
    let restarted = false;
    // Up once it has made its CA and answers over HTTPS.
    for (let i = 0; ; i++) {
      if (!restarted && /"logger":"tls\.obtain","msg":"will retry"/.test(caddyLog)) {
        restarted = true;
        caddy.kill();
        await once(caddy, 'exit');
        startCaddy();
        i = 0;
      }
      if (caddy.exitCode !== null) throw new Error(`Caddy exited:\n${caddyLog}`);
      if (existsSync(join(home, 'data/caddy/pki/authorities/local/root.crt'))) {
        session = openSession();
        const answer = await request('/healthz').catch(() => undefined);
        if (answer?.status === 200) break;
        session.destroy();
      }
      if (i > 200) throw new Error(`Caddy did not start:\n${caddyLog}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  afterAll(async () => {
    session?.destroy();
    if (caddy && caddy.exitCode === null) {
      const exited = once(caddy, 'exit');
      caddy.kill('SIGTERM');
      await exited;
    }
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(home, { recursive: true, force: true });
  });

  it("answers over HTTPS and HTTP/2 with the site's HSTS, CSP and precompressed body", async () => {
    const page = await request('/', { headers: { 'accept-encoding': 'br' } });
    expect(page.status).toBe(200);
    expect(session.alpnProtocol).toBe('h2');
    // HSTS because the server believes Caddy's X-Forwarded-Proto (TRUSTED_PROXIES).
    expect(page.headers['strict-transport-security']).toBe(HSTS);
    expect(page.headers['content-security-policy']).toMatch(/script-src [^;]*'sha256-/);
    expect(page.headers['content-encoding']).toBe('br');
    // The file the build compressed, byte for byte: Caddy neither recompressed nor altered it.
    expect(page.body.equals(readFileSync('dist/client/index.html.br'))).toBe(true);
  });

  it('counts the visitor who posts, not Caddy, whatever X-Forwarded-For the visitor sends', async () => {
    const answer = await postEnquiry(
      { ...validEnquiry, [IDEMPOTENCY_FIELD]: randomUUID() },
      { 'x-forwarded-for': '203.0.113.9' },
    );
    expect(answer.status).toBe(200);
    const { id } = JSON.parse(answer.body.toString()) as { id: string };
    const stored = (await readStore(database)).find((e) => e.id === id);
    expect(stored?.clientIp).toBe(VISITOR);
  });

  it("serves others at once while one client trickles many bodies, and refuses one over Caddy's limit", async () => {
    // More posts in hand than both processes have connections, each body a byte at a time, and
    // one sent again soon in the place of any that is answered, as a client set on it would.
    const slowSession = openSession(SLOW_CLIENT);
    const slowPosts = new Set<ClientHttp2Stream>();
    let attacking = true;
    const slowPost = () => {
      const stream = slowSession.request({
        ':method': 'POST',
        ':path': '/php/email.php',
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': '30000',
        origin,
      });
      slowPosts.add(stream);
      stream.on('error', () => {});
      stream.once('close', () => {
        slowPosts.delete(stream);
        if (attacking) setTimeout(slowPost, 25);
      });
      stream.write('n');
    };
    for (let i = 0; i < 3 * PROCESS_CONNECTIONS; i++) slowPost();
    const trickle = setInterval(() => slowPosts.forEach((stream) => stream.write('n')), 500);
    // Within a second: a page takes some 15 ms here. Without Caddy holding the bodies, it waited
    // for a connection to come free (a second or more), or for Caddy's 10 s of tries.
    const promptly = (path: string) =>
      Promise.race([request(path), new Promise<undefined>((r) => setTimeout(r, 1_000))]).then(
        (answer) => answer?.status,
      );
    try {
      // Past a health check of Caddy's (every second), which must still find the processes up.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(await promptly('/'), 'the home page, within a second').toBe(200);
      expect(await promptly('/healthz'), '/healthz, within a second').toBe(200);
    } finally {
      attacking = false;
      clearInterval(trickle);
      slowSession.destroy();
    }

    // A body that says it is larger than Caddy takes: 413 from Caddy before the body has come.
    const tooLarge = await new Promise<Answer>((resolve, reject) => {
      const stream = session.request({
        ':method': 'POST',
        ':path': '/php/email.php',
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': '10000000',
        origin,
      });
      const chunks: Buffer[] = [];
      let head: Answer['headers'] = {};
      stream.on('response', (h) => (head = h));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        resolve({ status: Number(head[':status']), headers: head, body: Buffer.concat(chunks) });
        stream.close();
      });
      stream.on('error', reject);
      stream.write('n');
    });
    expect(tooLarge.status).toBe(413);
    // Caddy's words, not a process's (its refusal of a form over 32 KB is the form's page).
    expect(tooLarge.body.toString()).toMatch(/less than 10 MB/);
  });

  it('loses no acknowledged enquiry when one process stops mid-load', async () => {
    const acknowledged: string[] = [];
    const failed: Record<string, string>[] = [];
    let stoppedAt: number | undefined;
    let afterStop = 0;
    const client = async (n: number) => {
      for (let i = 0; stoppedAt === undefined || afterStop < 40; i++) {
        const fields = {
          ...validEnquiry,
          project: `Load ${n}.${i}`,
          [IDEMPOTENCY_FIELD]: randomUUID(),
        };
        const answer = await postEnquiry(fields).catch(() => undefined);
        if (answer?.status === 200) {
          acknowledged.push((JSON.parse(answer.body.toString()) as { id: string }).id);
          if (stoppedAt !== undefined) afterStop++;
        } else
          failed.push({ ...fields, status: String(answer?.status), body: String(answer?.body) });
      }
    };
    const clients = [1, 2, 3, 4].map(client);
    while (acknowledged.length < 30) await new Promise((r) => setTimeout(r, 10));
    // A restart's first half: SIGTERM, as systemd sends it, while posts keep coming.
    await servers[0]!.stop();
    stoppedAt = acknowledged.length;
    await Promise.all(clients);

    const stored = new Set((await readStore(database)).map((e) => e.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBeGreaterThanOrEqual(acknowledged.length);
    // The stopping process said so in /healthz while it still served: Caddy took it out before
    // it closed, and no post failed.
    expect(
      failed.length,
      `posts that failed: ${JSON.stringify(failed.map((f) => [f.status, f.body]))}\n${servers[1]!.output()}\n${caddyLog}`,
    ).toBe(0);
    expect(servers[0]!.output()).toContain('SIGTERM: finishing the requests in hand');
  });
});
