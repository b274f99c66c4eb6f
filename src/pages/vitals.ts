import type { APIRoute } from 'astro';
import { beaconSchema } from '../domain/vitals';
import { jsonResponse } from '../server/json';
import { postHeaders } from '../server/requests/post-gate';

export const prerender = false;

/**
 * Field data: one page view's Core Web Vitals (src/client/field-vitals.ts). The middleware has put
 * it through the gate for posts (same origin, JSON of at most BEACON_LIMIT bytes, the beacons' own
 * rate limit); what passed is held to the beacon schema, strictly, and queued for the store.
 */
export const POST: APIRoute = async ({ locals }) => {
  const post = locals.post;
  if (!post?.ok) throw new Error('/vitals runs behind the gate for posts (src/middleware.ts).');
  const beacon = beaconSchema.safeParse(post.json);
  if (!beacon.success) {
    return jsonResponse(400, { error: 'Not a beacon of this site.' }, postHeaders());
  }
  (await locals.app.vitals()).recorder.record(beacon.data, post.client);
  return new Response(null, { status: 204, headers: postHeaders() });
};
