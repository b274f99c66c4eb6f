/**
 * The JSON the server answers, never sniffed as anything else: the site's endpoints' answers (shapes
 * in src/domain/api.ts), and a monitor's (/healthz, ./health.ts).
 */
import type {
  ErrorAnswer,
  FreeTimesAnswer,
  PasskeyAnswer,
  RefusalAnswer,
  SuccessAnswer,
} from '../domain/api.ts';

/** Any JSON body: for a reader that is not the site's own code (a monitor, a balancer). */
export const jsonBody = (status: number, body: object, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
  });

/** An answer the site's own pages and islands read, of a shape they know. */
export const jsonResponse = (
  status: number,
  body: SuccessAnswer | RefusalAnswer | FreeTimesAnswer | ErrorAnswer | PasskeyAnswer,
  headers: Record<string, string> = {},
) => jsonBody(status, body, headers);
