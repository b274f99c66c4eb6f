/**
 * Runs before every on-demand route: each must be listed in src/server/http/routes.ts (a route that is
 * not fails loudly rather than taking requests nobody checks), and every POST goes through the one
 * gate (src/server/requests/post-gate.ts) before the route sees it, as `Astro.locals.post`.
 */
import { defineMiddleware } from 'astro:middleware';
import { getMailContent } from './lib/content';
import { getEnquiryService, provideMailContent } from './server/enquiries/service';
import { storeUnavailableMessage } from './server/enquiries/pipeline';
import { gateAnswer, gatePost, refusal } from './server/requests/post-gate';
import { reportStoreFailure } from './server/log';
import { onDemandRoutes } from './server/http/routes';
import { serverConfig } from './server/config';
import { getVitalsService } from './server/vitals/service';
import { EDITOR_ROUTES } from './integrations/editor';

/** What Astro renders for an address it has no route for. */
const ERROR_ROUTES = new Set(['/404', '/500']);

export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered) return next();
  // The visual editor's routes exist in `astro dev` only (src/integrations/editor.ts).
  if (import.meta.env.DEV && EDITOR_ROUTES.has(context.routePattern)) return next();
  const policy = onDemandRoutes[context.routePattern];
  if (!policy) {
    if (ERROR_ROUTES.has(context.routePattern)) return next();
    throw new Error(
      `The route ${context.routePattern} is not listed in src/server/http/routes.ts.`,
    );
  }
  // What the e-mails say of the agency, for whichever route starts the enquiry service first.
  provideMailContent(getMailContent);
  const { request } = context;
  if (request.method !== 'POST') return next();

  if (policy.fieldData && !serverConfig().vitals.enabled) {
    return new Response(null, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  }

  let service;
  try {
    service = await (policy.fieldData ? getVitalsService() : getEnquiryService());
  } catch (error) {
    reportStoreFailure(error);
    return refusal(request, 503, storeUnavailableMessage, { 'Retry-After': '30' });
  }
  // Field data waits its turn, before its body is read (./server/vitals/pacer.ts).
  if ('pacer' in service && !(await service.pacer.admit())) {
    return refusal(request, 503, 'Too many measurements just now.', { 'Retry-After': '5' }, true);
  }
  let verdict;
  try {
    verdict = await gatePost(request, context.clientAddress, { ...service, body: policy.body });
  } catch (error) {
    // The shared rate limit lives in the store: a database gone is a 503, as for the forms.
    reportStoreFailure(error);
    return refusal(request, 503, storeUnavailableMessage, { 'Retry-After': '30' });
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
