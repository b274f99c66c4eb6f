/**
 * The visual editor on the live site (`EDITING=on`): a helper process serves it (../editor-helper.ts,
 * the editor's production build, its working folder the draft), and this server hands it the
 * editor's addresses (src/domain/editing.ts) over a unix socket, for signed-in editors only.
 *
 * - Signed out: the editor's page leads to the sign-in page; anything else is refused (403).
 * - The store out of reach (who is signed in is unknown): 503, a staff page to a browser
 *   (./refused.ts), the editor's fetches their line.
 * - A member who is not an editor (STAFF_EDITORS): 403, for the page and for every write; a
 *   browser is shown the staff page that says why (./refused.ts), the editor's fetches its line.
 * - A write (any method but GET and HEAD) must come from the site's own pages (Origin, or
 *   Sec-Fetch-Site: same-origin), and, once the editor has taken it, is a line of the staff audit
 *   with the member's name.
 * - The helper is told the public scheme and host (X-Forwarded-Proto, X-Forwarded-Host), to which
 *   its own same-origin checks compare, and who saves (EDITOR_MEMBER_HEADER); it is never sent the
 *   member's cookie.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  EDITOR_MEMBER_HEADER,
  LEAVE_PREVIEW,
  inPreview,
  oddlyWritten,
  previewedPath,
  KEYSTATIC_SAVE,
} from '../../domain/editing.ts';
import type { ServerConfig } from '../config.ts';
import { log } from '../log.ts';
import { privateFolder } from '../private-files.ts';
import { inDraftTurn } from '../releases/draft.ts';
import { isEditor, signedIn, type StaffMember } from './access.ts';
import { record, SIGN_IN_PAGE, type Answered, type OpenDesk } from './desk.ts';
import { leaveEntry, leavePreview, previewFile } from './preview.ts';
import { editorUnavailable, staffRefusal, type RefusalKind, type RefusedPage } from './refused.ts';

/** The draft the editor reads and writes: a working copy of the site (../releases/draft.ts). */
export const draftFolder = (config: Pick<ServerConfig, 'editing'>) => config.editing.draftDir;

/** The helper's socket, in a folder only the server's user may open. */
export const helperSocket = (config: Pick<ServerConfig, 'editing'>) =>
  resolve(config.editing.editingDir, 'run', 'editor.sock');

/** The editor's build, beside the site's (dist → dist-editor). */
export const editorDist = (config: Pick<ServerConfig, 'distDir'>) =>
  `${resolve(config.distDir)}-editor`;

const answer = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, {
    status,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex',
      ...headers,
    },
  });

const READS = new Set(['GET', 'HEAD']);

/** Whether a write comes from the site's own pages: as the staff desk's posts must. */
function fromTheSite(request: Request, origin: string) {
  const site = request.headers.get('sec-fetch-site');
  if (site) return site === 'same-origin';
  return request.headers.get('origin') === origin;
}

/** A refusal as the middleware takes it: a page to render, or the response itself. */
const shown = (refusal: RefusedPage | Answered) =>
  refusal.type === 'page' ? refusal : refusal.response;

/**
 * The editor's answer to `request`, for an address of the editor's; a refusal a member's browser
 * is shown as a staff page (the middleware renders it); undefined with EDITING off.
 */
export async function editorAnswer(
  request: Request,
  { open, config, now = Date.now }: { open: OpenDesk; config: ServerConfig; now?: () => number },
): Promise<Response | RefusedPage | undefined> {
  if (!config.editing.enabled) return undefined;
  const url = new URL(request.url);
  if (oddlyWritten(url.pathname)) return answer(404, 'Not found.');
  const desk = await open().catch(() => undefined);
  if (!desk) return shown(editorUnavailable(request));
  const origin = config.siteUrl ?? `${url.protocol}//${request.headers.get('host') ?? url.host}`;
  const current = await signedIn(request, { ...desk, now: now() });
  if (!current)
    return READS.has(request.method)
      ? answer(303, '', { Location: SIGN_IN_PAGE })
      : // A Save after the session ended: what was typed is still in the editor's tab.
        answer(
          403,
          `You were signed out. Your changes are kept in this browser: sign in again on ${SIGN_IN_PAGE}, then press Save again.`,
        );
  const { member } = current;
  const refuse = (kind: RefusalKind) => shown(staffRefusal(request, kind, member));
  if (!isEditor(member)) return refuse('not-an-editor');
  const write = !READS.has(request.method);
  // Preview mode is this server's own (./preview.ts); the preview's page is a page of the site's
  // (src/pages/keystatic/preview.astro, ./preview-page.ts).
  if (url.pathname === LEAVE_PREVIEW) return write ? refuse('leave-by-link') : leaveEntry();
  if (write && !fromTheSite(request, origin)) return refuse('not-from-the-site');
  const files = url.pathname === KEYSTATIC_SAVE && write ? savedFiles(request.clone()) : undefined;
  const response = await toHelper(
    request,
    url,
    member,
    new URL(origin),
    helperSocket(config),
    write,
  );
  const action = write && response.status < 400 ? auditedAs(request.method, url) : undefined;
  if (action) {
    const saved = (await files) ?? [];
    await record(desk, member, now(), {
      action,
      subject: saved[0] ?? url.pathname,
      // Every file when a Save wrote several (a rename: the new file, the old one deleted).
      detail: saved.length > 1 ? saved.join(', ') : null,
    });
  }
  return response;
}

/** The files a Save of Keystatic's writes and deletes, as its body names them (for the audit). */
async function savedFiles(request: Request): Promise<string[]> {
  try {
    const { additions = [], deletions = [] } = (await request.json()) as {
      additions?: { path?: unknown }[];
      deletions?: { path?: unknown }[];
    };
    return [...additions, ...deletions]
      .map(({ path }) => path)
      .filter((path): path is string => typeof path === 'string')
      .map((path) => path.slice(0, 200));
  } catch {
    return [];
  }
}

/**
 * A write the editor took, as the staff audit says it; none for the tab's own bookkeeping (which
 * pending uploads its drafts hold, told each time it is hidden).
 */
function auditedAs(method: string, url: URL): string | undefined {
  if (url.pathname === KEYSTATIC_SAVE) return 'saved in the editor';
  if (url.pathname.startsWith('/api/editor/images')) {
    if (url.searchParams.has('held')) return undefined;
    return method === 'DELETE'
      ? 'removed a picture in the editor'
      : 'uploaded a picture in the editor';
  }
  return 'changed the draft in the editor';
}

/**
 * A read in the draft's preview mode (./preview.ts) of an address that is not the editor's: the
 * preview's answer for a signed-in editor; out of preview mode for anyone else; undefined when the
 * live site answers (an on-demand route the preview has no file for, no preview built).
 */
export async function previewAnswer(
  request: Request,
  { open, config, now = Date.now }: { open: OpenDesk; config: ServerConfig; now?: () => number },
): Promise<Response | undefined> {
  if (
    !config.editing.enabled ||
    !READS.has(request.method) ||
    !inPreview(request.headers.get('cookie'))
  )
    return undefined;
  const asked = new URL(request.url);
  // The address as the page asked for it (the server may have handed it over under PREVIEW_FILES).
  const url = new URL(asked);
  url.pathname = previewedPath(asked.pathname);
  const handedOver = url.pathname !== asked.pathname;
  const desk = await open().catch(() => undefined);
  const current = desk && (await signedIn(request, { ...desk, now: now() }));
  if (!current || !isEditor(current.member)) return leavePreview(url);
  // A file of the live build the preview has no build to answer for (the server restarted): the
  // live site's, out of preview mode, rather than not found under the server's prefix.
  return (await previewFile(url)) ?? (handedOver ? leavePreview(url) : undefined);
}

/** Hop-by-hop headers, and what the helper must not be told by the browser. */
const NOT_PASSED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'host',
  'cookie',
  'authorization',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  EDITOR_MEMBER_HEADER,
]);

function helperHeaders(request: Request, member: StaffMember, origin: URL) {
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) if (!NOT_PASSED.has(name)) headers[name] = value;
  headers.host = origin.host;
  headers['x-forwarded-host'] = origin.host;
  headers['x-forwarded-proto'] = origin.protocol.slice(0, -1);
  headers[EDITOR_MEMBER_HEADER] = encodeURIComponent(
    JSON.stringify({ name: member.name, email: member.email }),
  );
  return headers;
}

/** The helper's answer, streamed; 503 while it is not there (starting, or restarting). */
async function toHelper(
  request: Request,
  url: URL,
  member: StaffMember,
  origin: URL,
  socketPath: string,
  write: boolean,
): Promise<Response> {
  // The body whole before the helper hears of it (the site's adapter bounds it, at 6 MB): a body
  // cut off half-way, sent on as it came, stopped this server (an unhandled error) or the helper.
  let body: Buffer | undefined;
  if (request.body) {
    try {
      body = Buffer.from(await request.arrayBuffer());
    } catch (error) {
      return /size limit/i.test(String(error))
        ? // The rest of the body is not read: the connection ends with this answer.
          answer(413, 'Too large: the editor takes at most 6 MB at once.', { Connection: 'close' })
        : answer(400, 'The request was cut off before its end.');
    }
  }
  const send = async () => {
    const outgoing = httpRequest({
      socketPath,
      method: request.method,
      path: url.pathname + url.search,
      headers: {
        ...helperHeaders(request, member, origin),
        ...(body && { 'content-length': String(body.length) }),
      },
    });
    outgoing.end(body);
    return (await once(outgoing, 'response')) as [IncomingMessage];
  };
  try {
    // A write, in the draft's turn until the helper answers (it has written its files by then).
    const [incoming] = await (write ? inDraftTurn(send) : send());
    return new Response(
      request.method === 'HEAD' || [204, 304].includes(incoming.statusCode ?? 0)
        ? null
        : (Readable.toWeb(incoming) as ReadableStream),
      { status: incoming.statusCode ?? 502, headers: responseHeaders(incoming.headers) },
    );
  } catch {
    return answer(503, 'The editor is starting: try again in a moment.', { 'Retry-After': '5' });
  }
}

function responseHeaders(incoming: IncomingHttpHeaders) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || NOT_PASSED.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** How soon a helper that stopped on its own is started again. */
const RESTART_MS = 1_000;
/** How often a server whose draft is not there yet looks for it. */
const DRAFT_WAIT_MS = 5_000;

/**
 * Starts the editor's helper process, and starts it again if it stops; `stop` ends it. It gets no
 * secret of the server's: only what it needs to find its build, its socket and the site's pages.
 */
export function startEditorHelper(config: ServerConfig, siteRoot: string) {
  const draft = draftFolder(config);
  const socket = helperSocket(config);
  const dist = editorDist(config);
  if (!existsSync(join(dist, 'server/entry.mjs')))
    log.error(`EDITING=on, but there is no editor build in ${dist}: run \`npm run build\`.`);
  privateFolder(resolve(socket, '..'));
  let child: ChildProcess | undefined;
  let stopping = false;
  let said = false;
  const start = () => {
    if (stopping) return;
    // No draft yet (it is made from the live content): the editor waits for it.
    if (!existsSync(draft)) {
      if (!said) log.warn(`EDITING=on: the editor starts once there is a draft in ${draft}.`);
      said = true;
      setTimeout(start, DRAFT_WAIT_MS).unref();
      return;
    }
    child = spawn(
      process.execPath,
      [fileURLToPath(new URL('../editor-helper.ts', import.meta.url))],
      {
        cwd: draft,
        env: helperEnvironment({ socket, dist, siteRoot }),
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      },
    );
    // Its lines through this server's logger: one format (LOG_FORMAT), the same guard.
    for (const [stream, write] of [
      [child.stdout, log.info],
      [child.stderr, log.warn],
    ] as const)
      if (stream) createInterface({ input: stream }).on('line', (line) => write(`editor: ${line}`));
    child.once('message', () => log.info('The visual editor is served at /keystatic, to editors.'));
    child.once('error', (error) =>
      log.error(`The editor's helper could not start: ${error.message}`),
    );
    child.once('exit', (code, signal) => {
      if (stopping) return;
      log.error(`The editor's helper stopped (${signal ?? code}): starting it again.`);
      setTimeout(start, RESTART_MS).unref();
    });
  };
  start();
  return {
    async stop() {
      stopping = true;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function helperEnvironment({ socket, dist, siteRoot }: Record<string, string>) {
  const kept = ['PATH', 'HOME', 'LANG', 'TZ', 'NODE_COMPILE_CACHE'];
  const env: NodeJS.ProcessEnv = { EDITOR_SOCKET: socket, EDITOR_DIST: dist };
  for (const name of kept) if (process.env[name]) env[name] = process.env[name];
  env.EDITOR_SITE_ROOT = siteRoot;
  env.ASTRO_TELEMETRY_DISABLED = '1';
  return env;
}
