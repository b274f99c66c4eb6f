/**
 * Runs before every on-demand route: each must be listed in src/server/http/routes.ts (a route that is
 * not fails loudly rather than taking requests nobody checks), and every POST goes through the one
 * gate (src/server/requests/post-gate.ts) before the route sees it, as `Astro.locals.post`.
 */
import type { APIContext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { getMailContent } from './lib/content';
import { app, provideMailContent } from './server/app';
import { storeUnavailableMessage } from './server/enquiries/pipeline';
import { gateAnswer, gatePost, refusal } from './server/requests/post-gate';
import { reportStoreFailure } from './server/log';
import { keyed } from './server/requests/rate-limit';
import { memberLimitKey } from './server/staff/access';
import {
  NOT_A_PAGE,
  allowHeader,
  astroRoutes,
  onDemandRoutes,
  routePath,
  type RoutePolicy,
} from './server/http/routes';
import type { Services } from './server/booking/services';
import { editorAnswer, previewAnswer } from './server/staff/editing';
import { DESK } from './server/staff/desk';
import {
  askedAgain,
  deskUnavailable,
  showRefused,
  signInUnavailable,
  signInUnavailableJson,
} from './server/staff/refused';
import { PREVIEW_PAGE, isEditorAddress } from './domain/editing';
import { serverConfig } from './server/config';
import { EDITOR_ROUTES } from './editor/routes';

/** What Astro renders for an address it has no route for. */
const ERROR_ROUTES = new Set(['/404', '/500']);

/**
 * Routes of `astro dev` only: the visual editor's (./editor/routes.ts), and Astro's image
 * endpoint, through which the dev server makes every image of the pages (the build writes files).
 */
const DEV_ROUTES: ReadonlySet<string> = new Set([...EDITOR_ROUTES, '/_image']);

/**
 * The limit a staff route's posts count against (RoutePolicy.staffLimit): the desk's counts each
 * signed-in member apart, so that one member's busy morning does not stop the others on the office's
 * network.
 */
async function staffLimiterOf(policy: RoutePolicy, service: Services, request: Request) {
  if (policy.staffLimit === 'none') return undefined;
  if (policy.staffLimit === 'sign-in') return service.signInLimiter;
  if (!service.staffLimiter) return undefined;
  const member = await memberLimitKey(request, await app.staff());
  return member ? keyed(service.staffLimiter, member) : service.staffLimiter;
}

/**
 * A post refused because the store cannot be reached: 503. At the desk's own routes (its page,
 * Publishing, the CSV), the desk's page that says so, its "Try again" leading to the page posted
 * to (the desk, from the CSV, which is no page); at signing in's (its page, a passkey's steps, JSON),
 * the staff's words that signing in is not possible; elsewhere, the forms' words.
 */
function storeOutOfReach(context: APIContext, policy: RoutePolicy, error: unknown) {
  reportStoreFailure(error);
  const { request } = context;
  if (!policy.staff) return refusal(request, 503, storeUnavailableMessage, { 'Retry-After': '30' });
  const answer =
    policy.staffLimit === 'sign-in'
      ? policy.body?.kind === 'json'
        ? signInUnavailableJson()
        : signInUnavailable(request)
      : deskUnavailable(request, policy.methods.includes('GET') ? askedAgain(request) : DESK);
  return answer.type === 'page' ? showRefused(context, answer) : answer.response;
}

export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered) return next();
  // The visual editor on the live site (EDITING=on), for signed-in editors: its helper answers,
  // and the draft's preview answers an editor's browser in preview mode.
  if (!import.meta.env.DEV) {
    await provideMailContent(getMailContent, import.meta.url);
    const services = { open: app.staff, config: serverConfig() };
    // The editor's Preview is a page of the site's (./pages/keystatic/preview.astro), which asks.
    const answer =
      context.routePattern === PREVIEW_PAGE
        ? undefined
        : isEditorAddress(routePath(context.url.pathname) ?? '')
          ? await editorAnswer(context.request, services)
          : await previewAnswer(context.request, services);
    // A member's browser refused is shown the staff page that says why (./pages/staff/refused.astro).
    if (answer && !(answer instanceof Response)) return showRefused(context, answer);
    if (answer) return answer;
  }
  // An address that is no page: a redirect or the not-found page, for any method, as before the
  // route was there (./pages/[...redirect].astro). It needs no services and takes no post.
  if (context.routePattern === NOT_A_PAGE) return next();
  if (import.meta.env.DEV && DEV_ROUTES.has(context.routePattern)) return next();
  const policy = onDemandRoutes[context.routePattern];
  if (!policy) {
    if (ERROR_ROUTES.has(context.routePattern)) return next();
    // Astro's own routes, which the site does not use: its not-found page, as for any unknown address.
    if (astroRoutes.has(context.routePattern)) return new Response(null, { status: 404 });
    throw new Error(
      `The route ${context.routePattern} is not listed in src/server/http/routes.ts.`,
    );
  }
  // What the e-mails say of the agency, for whichever route starts the services first.
  await provideMailContent(getMailContent, import.meta.url);
  context.locals.app = app;
  const { request } = context;
  // `astro dev` has no HTTP server of ours (./server/http/server.ts) to answer a method a route does
  // not take, as it does before Astro: a GET of a form's address was the route's 500.
  if (import.meta.env.DEV && !(policy.methods as readonly string[]).includes(request.method)) {
    const allow = allowHeader(policy);
    return new Response(`Use ${allow} here.`, { status: 405, headers: { Allow: allow } });
  }
  if (request.method !== 'POST') return next();

  if (policy.fieldData && !serverConfig().vitals.enabled) {
    return new Response(null, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  }

  let service;
  try {
    service = await (policy.fieldData ? app.vitals() : app.services());
  } catch (error) {
    if (policy.staffLimit !== 'none') return storeOutOfReach(context, policy, error);
    // Signing out needs no store to forget this browser's session: the route clears its cookie
    // (./server/staff/sign-in.ts), once the gate has checked where the post came from.
    reportStoreFailure(error);
    service = { config: serverConfig(), limiter: undefined };
  }
  // Field data waits its turn once the gate has refused all it can without the body
  // (./server/vitals/pacer.ts).
  const pacer = 'pacer' in service ? service.pacer : undefined;
  let verdict;
  try {
    verdict = await gatePost(request, context.clientAddress, {
      ...service,
      ...(policy.staff &&
        'staffLimiter' in service && { limiter: await staffLimiterOf(policy, service, request) }),
      ...(policy.callLink && 'linkLimiter' in service && { limiter: service.linkLimiter }),
      sameOriginOnly: policy.staff,
      body: policy.body,
      pace: pacer && (() => pacer.admit()),
    });
  } catch (error) {
    // The shared rate limit lives in the store: a database gone is a 503, as for the forms.
    return storeOutOfReach(context, policy, error);
  }
  if (!policy.showsRefusals) {
    const refused = gateAnswer(request, verdict, policy.body?.kind === 'json' || undefined);
    if (refused) return refused;
  }
  context.locals.post = verdict;
  const response = await next();
  // A post refused for what it says does not count against its sender's limit.
  if (response.status === 422 && verdict.ok) await verdict.refund?.().catch(reportStoreFailure);
  return response;
});
