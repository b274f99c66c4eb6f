/** /staff/sign-out (POST): ends the session in the store and its cookie, then to the sign-in page. */
import type { APIRoute } from 'astro';
import { handleSignOut } from '../../server/staff/sign-in';

export const prerender = false;

export const POST: APIRoute = async ({ request, locals }) =>
  (await handleSignOut(request, locals.app.staff)).response;
