/**
 * availability.yaml read by the staff CLI, which runs outside Astro: the pages and the server get
 * it from Astro's content collections (src/lib/content.ts), checked by the same schema.
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
