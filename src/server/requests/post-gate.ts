/**
 * The one gate every POST passes through (called by src/middleware.ts, before any route runs):
 * the cross-site check against the site's configured origins, the content types a form is sent
 * as, the body limit (refused from Content-Length before reading, and while streaming), strict
 * parsing, and the per-client rate limit (counting a client's network: ../networks.ts). A route
 * gets what passed as `Astro.locals.post`, and never reads the request body itself. A JSON post
 * (field data's beacons) is refused for all it can be before its body is read, and only then waits
 * its turn (`pace`): a flood of refused beacons never takes the turns of real ones.
 */
import { jsonHeadProblem, readForm, readJson, type Fields } from './body.ts';
import { clientAddress, isCrossSite, wantsJson } from './client.ts';
import { jsonResponse } from '../json.ts';
import type { ServerConfig } from '../config.ts';
import type { RateLimit } from './rate-limit.ts';
import { clientNetwork } from '../networks.ts';
import { htmlText } from '../../domain/html-text.ts';

export type PostVerdict =
  | {
      ok: true;
      /** A form's fields (none for a JSON post). */
      fields: Fields;
      /** A JSON post's parsed body, for a route whose policy reads JSON. */
      json?: unknown;
      /** The client's address (stored with what it sent; the rate limit counts its network). */
      client: string;
      /** Over the rate limit: the route answers 429, or the earlier answer of a repeated post. */
      throttled?: { retryAfter: number };
      /** Gives back the rate-limit hit of a post that was refused for its content (422). */
      refund?: () => Promise<void>;
    }
  | { ok: false; status: 400 | 403 | 413 | 415 | 503; message: string; retryAfter?: number };

export interface GateOptions {
  config: Pick<ServerConfig, 'allowedOrigins' | 'bodyLimit' | 'siteUrl' | 'trustedProxies'>;
  limiter: RateLimit | undefined;
  /** What the route reads: a form (the default), or JSON of at most `limit` bytes. */
  body?: PostBody | undefined;
  /**
   * For a JSON post: waits for its turn once every check that needs no body has passed (false: no
   * turn soon, 503). Field data's pacer (../vitals/pacer.ts).
   */
  pace?: (() => Promise<boolean>) | undefined;
  /**
   * The staff desk's: only the site's own pages may post, not ALLOWED_ORIGINS' (they post the forms,
   * and a same-site page there would carry a member's cookie), and a post that does not say where it
   * comes from is refused as cross-site.
   */
  sameOriginOnly?: boolean | undefined;
}

export type PostBody = { kind: 'form' } | { kind: 'json'; limit: number };

export async function gatePost(
  request: Request,
  socketAddress: string,
  { config, limiter, body: kind = { kind: 'form' }, pace, sameOriginOnly }: GateOptions,
): Promise<PostVerdict> {
  if (
    isCrossSite(request, {
      siteOrigin: config.siteUrl,
      allowedOrigins: sameOriginOnly ? [] : config.allowedOrigins,
    }) ||
    (sameOriginOnly && !saysWhereFrom(request))
  ) {
    return { ok: false, status: 403, message: crossSiteMessage(config.siteUrl) };
  }
  if (kind.kind === 'json')
    return gateJson(request, socketAddress, kind.limit, config, limiter, pace);
  const body = await readForm(request, config.bodyLimit);
  if (!body.ok) return body;
  const client = clientAddress(
    socketAddress,
    request.headers.get('x-forwarded-for'),
    config.trustedProxies,
  );
  const passed = { ok: true as const, fields: body.fields, client };
  if (!limiter) return passed;
  const at = Date.now();
  const network = clientNetwork(client);
  const verdict = await limiter.hit(network, at);
  if (!verdict.allowed) {
    return { ...passed, throttled: { retryAfter: verdict.retryAfter } };
  }
  return {
    ...passed,
    refund: async () => {
      await limiter.refund(network, at);
    },
  };
}

/**
 * A JSON post: its type and declared size, then the rate limit, then its turn (`pace`), and only
 * then its body. Over the limit, it is answered without its body being read: nothing in it is needed.
 */
async function gateJson(
  request: Request,
  socketAddress: string,
  limit: number,
  config: GateOptions['config'],
  limiter: RateLimit | undefined,
  pace: GateOptions['pace'],
): Promise<PostVerdict> {
  const head = jsonHeadProblem(request, limit);
  if (head) return head;
  const client = clientAddress(
    socketAddress,
    request.headers.get('x-forwarded-for'),
    config.trustedProxies,
  );
  const network = clientNetwork(client);
  const at = Date.now();
  const verdict = limiter ? await limiter.hit(network, at) : { allowed: true as const };
  if (!verdict.allowed)
    return { ok: true, fields: new Map(), client, throttled: { retryAfter: verdict.retryAfter } };
  const refund = async () => {
    await limiter?.refund(network, at);
  };
  if (pace && !(await pace())) {
    await refund();
    return { ok: false, status: 503, message: 'Too many measurements just now.', retryAfter: 5 };
  }
  const read = await readJson(request, limit);
  if (!read.ok) return read;
  return { ok: true, fields: new Map(), json: read.json, client, refund };
}

/**
 * Why a post from elsewhere is refused, with where the form is: a page kept open at another address
 * of the site (its IP, an old name) is refused too, and its reader needs to know where to go.
 */
export const crossSiteMessage = (siteUrl: string | undefined) =>
  siteUrl
    ? `This form only accepts posts from its own website, ${siteUrl}: open the page there and send it again.`
    : 'This form only accepts posts from a page opened on this machine (at localhost): open the page there and send it again.';

/**
 * Whether a post names where it comes from, as browsers' posts do (isCrossSite then judges the
 * Origin); curl's and other programs' need not.
 */
const saysWhereFrom = (request: Request) =>
  request.headers.has('origin') || request.headers.get('sec-fetch-site') === 'same-origin';

export const VARY = 'Origin, Sec-Fetch-Site, Accept';

/** Headers of every answer to a post: never cached, and varying with what the gate looks at. */
export function postHeaders(extra: Record<string, string> = {}) {
  return { Vary: VARY, 'Cache-Control': 'no-store', ...extra };
}

/** A wait of `retryAfter` seconds in whole minutes, as a limit's answer says it ("2 minutes"). */
export const inMinutes = (retryAfter: number) => {
  const minutes = Math.ceil(retryAfter / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

export const throttledMessage = (retryAfter: number) =>
  `You have sent several messages in a short time. Please try again in ${inMinutes(retryAfter)}.`;

/**
 * The gate's own answer, for a route that does not show refusals with its form: JSON for the
 * site's fetches, else a short page with the reason and a way back.
 */
export function refusal(
  request: Request,
  status: number,
  message: string,
  extra: Record<string, string> = {},
  json = wantsJson(request),
): Response {
  const headers = postHeaders(extra);
  if (json) return jsonResponse(status, { error: message }, headers);
  const page = `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="robots" content="noindex"><title>There is a problem</title><h1>There is a problem</h1><p>${htmlText(message)}</p><p><a href="/">Go to the home page</a></p></html>`;
  return new Response(page, {
    status,
    headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' },
  });
}

/** What the gate refused a post for, or why it is over the rate limit; undefined when it passed. */
export function refusalOf(
  verdict: PostVerdict,
): { status: number; message: string; headers: Record<string, string> } | undefined {
  if (!verdict.ok) {
    const { status, message, retryAfter } = verdict;
    return { status, message, headers: retryAfter ? { 'Retry-After': String(retryAfter) } : {} };
  }
  if (!verdict.throttled) return undefined;
  const { retryAfter } = verdict.throttled;
  return {
    status: 429,
    message: throttledMessage(retryAfter),
    headers: { 'Retry-After': String(retryAfter) },
  };
}

/** The verdict's refusal as the gate's own answer, for a route that does not show refusals. */
export function gateAnswer(
  request: Request,
  verdict: PostVerdict,
  json = wantsJson(request),
): Response | undefined {
  const refused = refusalOf(verdict);
  return refused && refusal(request, refused.status, refused.message, refused.headers, json);
}
