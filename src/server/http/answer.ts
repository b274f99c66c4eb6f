/**
 * What a form endpoint answers, and how a page passes it on. A handler (src/server/enquiries/,
 * src/server/booking/cancel.ts) decides an Outcome: a finished Response (JSON for the islands' fetch,
 * a redirect), or a page to render with a status and headers. The page calls applyOutcome once,
 * so no page copies statuses or headers itself.
 */
import type { Slot } from '../../domain/booking.ts';
import type { FieldErrors } from '../../domain/forms.ts';
import type { RefusalAnswer, SuccessAnswer } from '../../domain/api.ts';
import { jsonResponse } from '../json.ts';
import { wantsJson } from '../requests/client.ts';
import { postHeaders } from '../requests/post-gate.ts';

/** A page for the route to render, with the status and headers it answers with. */
export interface PageAnswer {
  type: 'page';
  status: number;
  headers: Record<string, string>;
}

/** An answer for a native post that the page renders: the form again with its errors, or a message. */
export interface PageOutcome<Field extends string> extends PageAnswer {
  values?: Record<string, string | string[]>;
  errors?: FieldErrors<Field>;
  message?: string;
  /** A booking whose time was just taken: the free times nearest to it. */
  alternatives?: Slot[];
}

export type Outcome<Field extends string> =
  { type: 'response'; response: Response } | PageOutcome<Field>;

/** A refused post: RefusalAnswer to a fetch, else the page with the form's values and errors. */
export function refused<Field extends string>(
  request: Request,
  status: number,
  body: Omit<PageOutcome<Field>, keyof PageAnswer>,
  extraHeaders: Record<string, string> = {},
): Outcome<Field> {
  const headers = postHeaders(extraHeaders);
  if (wantsJson(request)) {
    const json: RefusalAnswer<Field> = {
      ...(body.errors ? { errors: body.errors } : { error: body.message ?? 'Request refused.' }),
      ...(body.alternatives && { alternatives: body.alternatives }),
    };
    return { type: 'response', response: jsonResponse(status, json, headers) };
  }
  return { type: 'page', status, headers, ...body };
}

/** A stored post: SuccessAnswer to a fetch, a redirect to its location for a native post. */
export function succeeded<Field extends string>(
  request: Request,
  answer: SuccessAnswer,
): Outcome<Field> {
  const headers = postHeaders();
  const response = wantsJson(request)
    ? jsonResponse(200, answer, headers)
    : new Response(null, { status: 303, headers: { ...headers, Location: answer.location } });
  return { type: 'response', response };
}

/** What a page can set on its answer (Astro.response). */
interface PageResponse {
  response: { status?: number; headers: Headers };
}

/**
 * An outcome as a page takes it: a finished Response for the page to return, or the page to render,
 * whose status and headers are set on `Astro.response` here.
 */
export function applyOutcome<Page extends PageAnswer>(astro: PageResponse, outcome: Page): Page;
export function applyOutcome<Page extends PageAnswer>(
  astro: PageResponse,
  outcome: { type: 'response'; response: Response } | Page,
): Response | Page;
export function applyOutcome<Page extends PageAnswer>(
  astro: PageResponse,
  outcome: { type: 'response'; response: Response } | Page,
): Response | Page {
  if (outcome.type === 'response') return outcome.response;
  astro.response.status = outcome.status;
  for (const [name, value] of Object.entries(outcome.headers))
    astro.response.headers.set(name, value);
  return outcome;
}
