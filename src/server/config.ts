/**
 * The server's configuration, read once from the environment. Every variable
 * and its default is listed in the README's configuration section.
 */

export interface ServerConfig {
  /** The SQLite file of the enquiry store, when there is no DATABASE_URL. */
  databasePath: string;
  /** A PostgreSQL URL (postgres://user:pass@host:5432/db): the store that several processes share. */
  databaseUrl: string | undefined;
  /** SMTP connection URL (smtp://user:pass@host:587); without it enquiries are stored, not mailed. */
  smtpUrl: string | undefined;
  mailTo: string | undefined;
  mailFrom: string | undefined;
  /** How often the outbox looks for mail to send or retry, in ms. */
  outboxPollMs: number;
  /** The first retry's delay after a failed send, doubling up to 15 minutes. */
  outboxRetryBaseMs: number;
  /** How long a process's claim on outbox entries holds, should it die while sending them. */
  outboxLeaseMs: number;
  rateLimit: { enabled: boolean; max: number; windowMs: number };
  /** Socket addresses of proxies whose X-Forwarded-For and X-Forwarded-Proto are believed. */
  trustedProxies: string[];
  recaptcha: { secret: string | undefined; verifyUrl: string };
  /** Public origins whose forms may post here, besides the origin a request arrives at. */
  allowedOrigins: string[];
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /**
   * BOOKING_SECRET signs the cancel links of booked calls; without one of at least 32 characters,
   * prospects can still ask for a call but not book a time.
   */
  bookingSecret: string | undefined;
  /** The site's public address for links in e-mails (SITE_URL; else the site of astro.config.mjs). */
  siteUrl: string | undefined;
}

/** Why booking is off, or undefined when the secret is usable. */
export function bookingOffReason(secret: string | undefined): string | undefined {
  if (!secret) return 'BOOKING_SECRET is not set';
  if (secret.length < 32) return 'BOOKING_SECRET is shorter than 32 characters';
  return undefined;
}

const number = (value: string | undefined, fallback: number) => {
  const parsed = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(parsed) && parsed > 0
    ? parsed
    : fallback;
};

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    databasePath: env.ENQUIRY_DB || './data/enquiries.sqlite',
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailTo: env.ENQUIRY_TO || undefined,
    mailFrom: env.ENQUIRY_FROM || undefined,
    outboxPollMs: number(env.OUTBOX_POLL_MS, 1000),
    outboxRetryBaseMs: number(env.OUTBOX_RETRY_BASE_MS, 5000),
    outboxLeaseMs: number(env.OUTBOX_LEASE_MS, 5 * 60_000),
    rateLimit: {
      enabled: env.RATE_LIMIT !== 'off',
      max: number(env.RATE_LIMIT_MAX, 5),
      windowMs: number(env.RATE_LIMIT_WINDOW_MS, 10 * 60 * 1000),
    },
    trustedProxies: list(env.TRUSTED_PROXIES),
    recaptcha: {
      secret: env.RECAPTCHA_SECRET || undefined,
      verifyUrl: env.RECAPTCHA_VERIFY_URL || 'https://www.google.com/recaptcha/api/siteverify',
    },
    allowedOrigins: list(env.ALLOWED_ORIGINS).map((origin) => new URL(origin).origin),
    bodyLimit: 32 * 1024,
    bookingSecret: env.BOOKING_SECRET || undefined,
    siteUrl: env.SITE_URL ? new URL(env.SITE_URL).origin : undefined,
  };
}
