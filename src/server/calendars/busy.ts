/** Busy intervals, as calendars and booked calls give them to the free times. */

/** A busy interval, in epoch milliseconds: [start, end). */
export interface Busy {
  start: number;
  end: number;
}

/**
 * The busy times of each host's calendars (epoch ms, sorted, merged), by host id: none for a host
 * with no calendar, 'unknown' for one whose calendar cannot be read now (offered nothing).
 */
export type CalendarBusy = ReadonlyMap<string, readonly Busy[] | 'unknown'>;

/** Sorted, with overlapping and touching intervals made one. */
export function merge(intervals: readonly Busy[]): Busy[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Busy[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}
