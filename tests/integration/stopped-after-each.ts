/** Servers a test starts (the site's, a test SMTP server), each stopped when the test ends. */
import { afterEach } from 'vitest';
import { freePort, startServer, type RunningServer } from '../support/server';
import { startSmtp, type SmtpOptions, type TestSmtp } from '../../scripts/smtp';

export function stoppedAfterEach(defaults: Record<string, string> = {}) {
  const running: RunningServer[] = [];
  const smtpServers: TestSmtp[] = [];
  afterEach(async (context) => {
    // A test that failed shows what its servers said: a server that died mid-test (ECONNREFUSED)
    // says why only there.
    if (context.task.result?.state === 'fail')
      for (const server of running)
        console.error(
          `The output of the server at ${server.url}:\n${server.output().slice(-4000)}`,
        );
    await Promise.all(running.splice(0).map((s) => s.stop()));
    await Promise.all(smtpServers.splice(0).map((s) => s.close()));
  });
  const start = async (env: Record<string, string> = {}) => {
    const server = await startServer({ ...defaults, ...env });
    running.push(server);
    return server;
  };
  const startTestSmtp = async (port: number, options?: SmtpOptions) => {
    const smtp = await startSmtp(port, options);
    smtpServers.push(smtp);
    return smtp;
  };
  return {
    start,
    startSmtp: startTestSmtp,
    /** A server that mails through a test SMTP server, with its cancel links pointing at itself. */
    async startWithMail(env: Record<string, string> = {}, smtpOptions: SmtpOptions = {}) {
      const [port, smtpPort] = [await freePort(), await freePort()];
      const smtp = await startTestSmtp(smtpPort, smtpOptions);
      const server = await start({
        PORT: String(port),
        SITE_URL: `http://127.0.0.1:${port}`,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`,
        ENQUIRY_TO: 'sales@agency.example',
        ENQUIRY_FROM: 'website@agency.example',
        JOBS_POLL_MS: '100',
        ...env,
      });
      return { server, mails: smtp.received };
    },
  };
}
