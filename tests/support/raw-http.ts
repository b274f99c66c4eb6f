/**
 * HTTP as a stranger writes it: any method (TRACE, CONNECT, made-up ones fetch refuses to send),
 * any head, a body sent slowly or never finished, from any loopback address.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawOptions {
  /** Sent after the head; pieces are written one after another. */
  body?: string | Buffer;
  /** The loopback address to send from (127.0.0.2 is another client than 127.0.0.1). */
  localAddress?: string;
  timeoutMs?: number;
}

/** Parses what a server wrote on a connection it then closed. */
export function parseResponse(raw: Buffer): RawResponse | undefined {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (!text.startsWith('HTTP/1.1 ') || end === -1) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4) };
}

/** Opens a connection to `url`'s host and port (from `localAddress` if given). */
export function openSocket(url: string, localAddress?: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress }, () =>
      resolve(socket),
    );
    socket.once('error', reject);
  });
}

/** Everything the server writes on `socket` until it closes it. */
export function whatServerWrites(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('close', () => resolve(text));
    // A server that answers before it has read the whole body may reset the connection.
    socket.on('error', () => {});
  });
}

/**
 * Sends `head` (the request line and headers, without the blank line) and `body`, and reads the
 * answer until the server closes the connection (`Connection: close` is added).
 */
export async function rawRequest(
  url: string,
  head: string,
  { body, localAddress, timeoutMs = 10_000 }: RawOptions = {},
): Promise<RawResponse> {
  const socket = await openSocket(url, localAddress);
  const { host } = new URL(url);
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`No answer within ${timeoutMs} ms to ${head.split('\r\n')[0]}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A server that answers before it has read the whole body may reset the connection.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const response = parseResponse(Buffer.concat(chunks));
      if (response) resolve(response);
      else reject(new Error(`No HTTP answer to ${head.split('\r\n')[0]}`));
    });
    const withHost = /\r\nhost:/i.test(head) ? head : `${head}\r\nHost: ${host}`;
    socket.write(`${withHost}\r\nConnection: close\r\n\r\n`);
    if (body !== undefined) socket.write(body);
  });
}
