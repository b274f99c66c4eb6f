/** /staff/enquiries.csv (POST, the desk's button): the enquiries as `npm run enquiries -- --csv` writes them, signed in only. */
import type { APIRoute } from 'astro';
import { handleEnquiriesCsv } from '../../server/staff/enquiries-csv';

export const prerender = false;

export const POST: APIRoute = ({ request, locals }) =>
  handleEnquiriesCsv(request, locals.post, locals.app.staff);
