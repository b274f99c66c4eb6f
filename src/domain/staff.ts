/**
 * What the staff desk's pages show (src/components/staff/), as src/server/staff/desk.ts makes it:
 * only what a member reads there, nothing else of a stored enquiry.
 */
import type { MetricName, Rating } from './vitals.ts';

/** A call ahead on the desk. */
export interface DeskCall {
  /** The enquiry it was booked with. */
  id: string;
  name: string;
  email: string;
  message: string | undefined;
  start: string;
  end: string;
  /** Its host's name (or id), null for a call of no host. */
  host: string | null;
  /** Where it takes place: the host's video room, or the agency's place; unsaid, undefined. */
  where: string | undefined;
  confirmed: boolean;
  moves: number;
  /** The member's own call. */
  mine: boolean;
}

/** An enquiry (or a call request) on the desk. */
export interface DeskEnquiry {
  id: string;
  kind: 'enquiry' | 'call';
  name: string;
  email: string;
  createdAt: string;
  /** What it is about: the project, or the message. */
  about: string | undefined;
  handled: { at: string; by: string } | undefined;
}

/** One line of the audit log: who did what, to what, when (epoch ms). */
export interface AuditLine {
  at: number;
  actor: string;
  action: string;
  subject: string | null;
  detail: string | null;
}

/** Field data's p75 of one page and metric. */
export interface VitalsRow {
  group: string;
  metric: MetricName;
  p75: number;
  rating: Rating;
  samples: number;
}
