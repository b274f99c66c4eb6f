/** The HTTP server in front of Astro: whatever a handler throws is that request's 500 alone. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JOBS_LEASE_MS, readConfig } from '../../src/server/config';
import { createSiteServer, type NodeHandler } from '../../src/server/http/server';

const running: ReturnType<typeof createSiteServer>[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function serve(handler: NodeHandler) {
  const distDir = mkdtempSync(join(tmpdir(), 'dist-'));
  folders.push(distDir);
  mkdirSync(join(distDir, 'client'));
  writeFileSync(join(distDir, 'client', 'index.html'), '<!doctype html><title>Home</title>');
  const log: string[] = [];
  const server = createSiteServer({
    handler,
    distDir,
    limits: readConfig({}).connections,
    log: (line) => log.push(line),
  });
  running.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, log };
}

describe('a handler that fails', () => {
  it('answers 500 with a short page and one log line, thrown at once or later, and serves on', async () => {
    const { url, log } = await serve((req, res) => {
      if (req.url === '/healthz') return void res.end('ok');
      if (req.url?.startsWith('/schedule/booked')) throw new TypeError('thrown at once');
      return Promise.reject(new Error('thrown later\nwith a second line'));
    });
    const sync = await fetch(`${url}/schedule/booked?ref=1`);
    expect(sync.status).toBe(500);
    expect(sync.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await sync.text()).toContain('Something went wrong');
    const later = await fetch(`${url}/schedule`);
    expect(later.status).toBe(500);
    expect(log).toEqual([
      '500 GET /schedule/booked: thrown at once',
      '500 GET /schedule: thrown later with a second line',
    ]);
    expect(await (await fetch(`${url}/healthz`)).text()).toBe('ok');
    expect((await fetch(`${url}/`)).status).toBe(200);
  });

  it('never reaches the handler with a method its address does not take', async () => {
    let called = 0;
    const { url } = await serve((_req, res) => {
      called++;
      res.end('ok');
    });
    for (const method of ['PUT', 'DELETE', 'PATCH', 'POST']) {
      const response = await fetch(`${url}/schedule/booked`, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
    expect(called).toBe(0);
  });
});

describe('the configuration', () => {
  it('reads where the server listens and what it serves from the environment it is given', () => {
    expect(readConfig({})).toMatchObject({
      listen: { host: '127.0.0.1', port: 4321 },
      distDir: 'dist',
      jobs: { leaseMs: JOBS_LEASE_MS },
    });
    expect(
      readConfig({ HOST: '0.0.0.0', PORT: '8080', DIST_DIR: '/srv/site', JOBS_LEASE_MS: '900' }),
    ).toMatchObject({
      listen: { host: '0.0.0.0', port: 8080 },
      distDir: '/srv/site',
      jobs: { leaseMs: 900 },
    });
  });
});
