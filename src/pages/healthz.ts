import type { APIRoute } from 'astro';
import { getEnquiryService } from '../server/enquiries';

export const prerender = false;

/** 200 while the enquiry store accepts writes, 503 otherwise. */
export const GET: APIRoute = () => {
  let writable = false;
  try {
    writable = getEnquiryService().store.isWritable();
  } catch {
    // The store could not even be opened.
  }
  return new Response(JSON.stringify({ status: writable ? 'ok' : 'store not writable' }), {
    status: writable ? 200 : 503,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  });
};

export const ALL: APIRoute = () =>
  new Response('Use GET.', {
    status: 405,
    headers: { Allow: 'GET', 'Content-Type': 'text/plain; charset=utf-8' },
  });
