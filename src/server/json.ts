/** The JSON the site's endpoints answer (shapes in src/domain/api.ts), never sniffed as anything else. */
import type {
  ErrorAnswer,
  FreeTimesAnswer,
  PasskeyAnswer,
  RefusalAnswer,
  SuccessAnswer,
} from '../domain/api.ts';

export const jsonResponse = (
  status: number,
  body: SuccessAnswer | RefusalAnswer | FreeTimesAnswer | ErrorAnswer | PasskeyAnswer,
  headers: Record<string, string> = {},
) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
  });
