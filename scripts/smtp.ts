/**
 * A real SMTP server (smtp-server) on loopback that keeps every message it accepts, for the tests
 * and the enquiry bench (`--smtp`), as scripts/postgres.mjs is their PostgreSQL. tests/ imports
 * scripts/, never the other way round.
 */
import { SMTPServer } from 'smtp-server';

export interface Received {
  raw: string;
  from: string;
  to: string[];
}

export interface TestSmtp {
  received: Received[];
  close(): Promise<void>;
}

export interface SmtpOptions {
  /** Recipients this server refuses for good (550), as a real one refuses an unknown mailbox. */
  refuses?: (address: string) => boolean;
  /** Every recipient it was asked to take, refused or not. */
  asked?: string[];
  /**
   * Messages it never answers once their data has come (a server that hangs mid-send), kept in
   * `stalled` instead of `received`.
   */
  stalls?: (raw: string) => boolean;
  stalled?: Received[];
}

export async function startSmtp(
  port: number,
  { refuses = () => false, asked = [], stalls = () => false, stalled = [] }: SmtpOptions = {},
): Promise<TestSmtp> {
  const received: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      asked.push(address.address);
      if (!refuses(address.address)) return callback();
      const error = Object.assign(new Error('5.1.1 No such mailbox here'), { responseCode: 550 });
      callback(error);
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        const message = {
          raw,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        if (stalls(raw)) return void stalled.push(message);
        received.push(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    received,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
