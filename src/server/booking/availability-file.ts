/**
 * availability.yaml (and the agency's address, of settings.yaml) read by the staff CLI, which runs
 * outside Astro: the pages and the server get them from Astro's content collections
 * (src/lib/content.ts), checked by the same schema.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { availabilitySchema, type Availability } from '../../domain/booking.ts';

export const AVAILABILITY_FILE = 'src/content/data/availability.yaml';

/** The `calls` entry of availability.yaml, as the schema gives it (defaults filled in). */
export function readAvailability(path = AVAILABILITY_FILE): Availability {
  const { entries } = parse(readFileSync(path, 'utf8')) as { entries?: { id?: string }[] };
  const found = entries?.find((entry) => entry.id === 'calls');
  if (!found) throw new Error(`${path} has no entry "calls"`);
  const { id: _id, ...fields } = found;
  return availabilitySchema.parse(fields);
}

/** The agency's public address (settings.yaml's `site` entry): its domain names the calls' UIDs. */
export function readSiteEmail(path = 'src/content/data/settings.yaml'): string {
  const { entries } = parse(readFileSync(path, 'utf8')) as {
    entries?: { id?: string; email?: unknown }[];
  };
  const email = entries?.find((entry) => entry.id === 'site')?.email;
  if (typeof email !== 'string') throw new Error(`${path} has no entry "site" with an email`);
  return email;
}
