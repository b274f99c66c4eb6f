/** /staff/enquiries.csv: the enquiries as `npm run enquiries -- --csv` writes them, signed in only. */
import type { APIRoute } from 'astro';
import { handleEnquiriesCsv } from '../../server/staff/desk';

export const prerender = false;

export const GET: APIRoute = ({ request, locals }) => handleEnquiriesCsv(request, locals.app.staff);
