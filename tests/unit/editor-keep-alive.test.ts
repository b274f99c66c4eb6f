/** The editor's dev server keeps an idle connection open past the time it tells clients (keep-alive.ts). */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { ViteDevServer } from 'vite';
import { afterEach, expect, it } from 'vitest';
import { idleConnectionsOutlastTheirHint } from '../../src/editor/dev-server/keep-alive';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A server as the dev server's: Node's, given the plugin or not; its keep-alive 100 ms, not 5 s, so that the test waits 1.5 s. */
async function serve(withPlugin: boolean) {
  const server = createServer((request, response) => response.end('ok'));
  servers.push(server);
  server.keepAliveTimeout = 100;
  if (withPlugin) {
    const hook = idleConnectionsOutlastTheirHint().configureServer!;
    const configure = typeof hook === 'function' ? hook : hook.handler;
    await configure.call({} as never, { httpServer: server } as unknown as ViteDevServer);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** How many answers a connection had: one request, a pause of 1.5 s, the same request again. */
async function answersAfterAPause(port: number) {
  const socket = connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  let received = '';
  socket.on('data', (text: string) => (received += text));
  socket.on('error', () => {});
  const answers = () => received.match(/HTTP\/1\.1 200 /g)?.length ?? 0;
  try {
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(answers, { interval: 20 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    if (!socket.destroyed) socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    return answers();
  } finally {
    socket.destroy();
  }
}

it('keeps an idle connection ten seconds past the time it names, where Node closes it after one', async () => {
  const [kept, closed] = await Promise.all([
    serve(true).then(answersAfterAPause),
    serve(false).then(answersAfterAPause),
  ]);
  expect(kept).toBe(2);
  expect(closed).toBe(1);
});
