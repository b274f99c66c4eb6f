// What the scripts and the browser tests share: how to drive Chromium here, and how to serve the build.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

/** Debian's Chromium (Playwright cannot download its own browser here), or CHROMIUM_PATH / CHROME_PATH. */
export const chromiumPath =
  process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';

/**
 * Debian's headless shell of the same Chromium (package chromium-headless-shell, or
 * CHROMIUM_SHELL_PATH): the same engine without the browser around it, which opens a tab for about
 * two thirds of the processor time. It has no Background Sync: a test that needs it keeps the whole
 * browser (tagged @whole-browser, playwright.config.ts). Without the shell installed (or with
 * CHROMIUM_SHELL_PATH=none), the whole browser everywhere.
 */
const shellPath = process.env.CHROMIUM_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';
export const chromiumShellPath =
  shellPath !== 'none' && existsSync(shellPath) ? shellPath : chromiumPath;

/** Without the network flags, Chromium's own connections are refused by this machine's closed network. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Chromium for Lighthouse (chrome-launcher), its temporary folders in one of its own: chrome-launcher
 * kills it outright, which left a `/tmp/org.chromium.Chromium.*` folder behind at every run.
 */
export async function launchLighthouseChrome() {
  const chromeLauncher = await import('chrome-launcher');
  const temp = mkdtempSync(join(tmpdir(), 'bench-chromium-'));
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', ...chromiumArgs],
    envVars: { ...process.env, TMPDIR: temp },
  });
  return {
    port: chrome.port,
    kill() {
      chrome.kill();
      rmSync(temp, { recursive: true, force: true });
    },
  };
}

/** The port `port` (0: one the system picks) if nothing listens on it on loopback now, else null. */
const listenable = (port) =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address();
      server.close(() => resolve(bound));
    });
  });

/** The range the system takes the local ports of outgoing connections from (Linux; else IANA's). */
function ephemeralPorts() {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low > 0 && high >= low) return { low, high };
  } catch {}
  return { low: 49152, high: 65535 };
}

/**
 * A free loopback port for a server, from below the range of outgoing connections' own ports:
 * callers choose it before the server listens (a server started later, an SMTP server down for a
 * while, a server restarted on its port), and a connection made meanwhile anywhere on the machine
 * could take a port of that range (a test's SMTP server then failed with EADDRINUSE). From 10100
 * up: browsers refuse some ports below (10080 the last).
 */
export async function freePort() {
  const low = 10_100;
  const high = ephemeralPorts().low - 1;
  for (let tries = 0; tries < 50 && high > low; tries++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (reserve(port) && (await listenable(port))) return port;
  }
  const port = await listenable(0);
  if (!port) throw new Error('No free port on 127.0.0.1');
  return port;
}

/**
 * Between `freePort()` and a server's listen, another test process (npm test runs several side by
 * side) could be handed the same port: CI's run failed once on EADDRINUSE. A port handed out is
 * written down in a folder every process sees, and not handed out again for a minute (by then its
 * server listens, and `listenable` says so).
 */
const reservations = join(tmpdir(), 'northgate-test-ports');
const reservedFor = 60_000;
let swept = false;
function reserve(port) {
  const file = join(reservations, String(port));
  mkdirSync(reservations, { recursive: true });
  // Once a process, the notes of ports handed out long ago go, so that the folder stays small.
  if (!swept) {
    swept = true;
    for (const name of readdirSync(reservations))
      try {
        if (Date.now() - statSync(join(reservations, name)).mtimeMs > reservedFor)
          rmSync(join(reservations, name), { force: true });
      } catch {}
  }
  try {
    if (Date.now() - statSync(file).mtimeMs < reservedFor) return false;
    rmSync(file, { force: true });
  } catch {}
  try {
    writeFileSync(file, '', { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `npm start`'s server over the existing build, on a free loopback port, with a store of its
 * own in a temporary folder. Resolves once /healthz answers; `stop()` ends it and removes the store.
 */
export async function serveBuild(env = {}) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'serve-build-'));
  const server = spawn(process.execPath, ['src/server/main.ts'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      ENQUIRY_DB: join(dir, 'enquiries.sqlite'),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    if (i > 100) {
      server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error('The server did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    database: join(dir, 'enquiries.sqlite'),
    async stop() {
      if (server.exitCode === null && server.signalCode === null) {
        server.kill('SIGTERM');
        await once(server, 'exit');
      }
      rmSync(dir, { recursive: true, force: true });
    },
    /** SIGKILL: no shutdown code runs, as in a crash. */
    async kill9() {
      if (server.exitCode === null && server.signalCode === null) {
        server.kill('SIGKILL');
        await once(server, 'exit');
      }
    },
  };
}

/** The gzip bytes of a page's inline scripts (those that run: classic and module), as a reader downloads them. */
export async function inlineScriptBytes(page) {
  const inline = await page.evaluate(() =>
    [...document.querySelectorAll('script:not([src])')]
      .filter((s) => !s.type || s.type === 'module' || s.type === 'text/javascript')
      .map((s) => s.textContent ?? ''),
  );
  return inline.reduce((sum, text) => sum + gzipSync(text).length, 0);
}

/** An enquiry as the contact form sends it (urlencoded), for the benchmarks that post many. */
export const enquiryFormBody = new URLSearchParams({
  first_name: 'Grace',
  last_name: 'Hopper',
  email: 'grace@example.com',
  contact: '+44 20 7946 0958',
  service: 'Web Development,Technical Consultancy',
  project: 'A booking platform for 12 clinics, with online payments and reminders by text message.',
}).toString();
