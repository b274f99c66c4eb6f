/** /staff/enquiries.csv (POST, the desk's button): the enquiries as `npm run enquiries -- --csv` writes them, signed in only. */
import type { APIRoute } from 'astro';
import { handleEnquiriesCsv } from '../../server/staff/enquiries-csv';
import { showRefused } from '../../server/staff/refused';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const { request, locals } = context;
  const answer = await handleEnquiriesCsv(request, locals.post, locals.app.staff);
  return answer instanceof Response ? answer : showRefused(context, answer);
};
