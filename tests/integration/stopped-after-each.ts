/** Servers a test starts (the site's, a test SMTP server), each stopped when the test ends. */
import { afterEach } from 'vitest';
import { startServer, type RunningServer } from '../server';
import { startSmtp, type SmtpOptions, type TestSmtp } from '../smtp';

export function stoppedAfterEach(defaults: Record<string, string> = {}) {
  const running: RunningServer[] = [];
  const smtpServers: TestSmtp[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()));
    await Promise.all(smtpServers.splice(0).map((s) => s.close()));
  });
  return {
    async start(env: Record<string, string> = {}) {
      const server = await startServer({ ...defaults, ...env });
      running.push(server);
      return server;
    },
    async startSmtp(port: number, options?: SmtpOptions) {
      const smtp = await startSmtp(port, options);
      smtpServers.push(smtp);
      return smtp;
    },
  };
}
