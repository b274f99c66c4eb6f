/**
 * A restart loses nothing in hand: on SIGTERM the server takes no new connection but answers the
 * request it is reading, whose enquiry is stored and acknowledged, before the process ends.
 */
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { IDEMPOTENCY_FIELD } from '../../src/domain/forms';
import { openSocket, parseResponse } from '../support/raw-http';
import { readStore, validEnquiry } from '../support/server';
import { stoppedAfterEach } from './stopped-after-each';

const servers = stoppedAfterEach();

it('answers the post it is reading when SIGTERM comes, then stops', async () => {
  const server = await servers.start();
  const body = new URLSearchParams({
    ...validEnquiry,
    [IDEMPOTENCY_FIELD]: 'stopping-test-1',
  }).toString();
  const socket = await openSocket(server.url);
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = once(socket, 'close');
  const host = new URL(server.url).host;
  socket.write(
    `POST /php/email.php HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${server.url}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nAccept: application/json\r\n` +
      `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
  );
  // "100 Continue": the server has the request in hand, and waits for its body.
  while (!Buffer.concat(received).toString().includes('100 Continue')) await once(socket, 'data');
  received.length = 0;
  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  // Its log says it is stopping before the body comes.
  while (!server.output().includes('SIGTERM: finishing the requests in hand'))
    await once(server.child.stdout!, 'data');
  // Written, not ended: a client that half-closes its side has its request dropped by Node.
  socket.write(body);
  await closed;
  const answer = parseResponse(Buffer.concat(received));
  expect(answer?.status).toBe(200);
  expect(answer?.headers.connection).toBe('close');
  // The body as sent, in chunks or whole: the JSON within.
  const { id } = JSON.parse(/\{.*\}/s.exec(answer!.body)![0]) as { id: string };
  await exited;
  expect((await readStore(server.database)).map((e) => e.id)).toContain(id);
});
