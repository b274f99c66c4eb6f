/** /staff/passkey (POST, JSON): the steps of adding a passkey and of signing in with one. */
import type { APIRoute } from 'astro';
import { handlePasskey } from '../../server/staff/passkeys';

export const prerender = false;

export const POST: APIRoute = async ({ request, locals }) =>
  (await handlePasskey(request, locals.post, locals.app.staff)).response;
