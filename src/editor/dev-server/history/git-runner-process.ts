/**
 * The process ./git-runner.ts starts: reads one request a line on its input (JSON: id, args, cwd,
 * env, input), runs git for it and writes the answer as a line; ends when its input closes.
 */
import { execFile } from 'node:child_process';
import { createInterface } from 'node:readline';

for await (const line of createInterface({ input: process.stdin })) {
  const { id, args, cwd, env, input } = JSON.parse(line) as {
    id: number;
    args: string[];
    cwd: string;
    env: NodeJS.ProcessEnv;
    input?: string;
  };
  const child = execFile(
    'git',
    args,
    { cwd, env, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
    (error, stdout, stderr) =>
      process.stdout.write(
        `${JSON.stringify({ id, stdout, stderr, ...(error && { error: error.message }) })}\n`,
      ),
  );
  if (input !== undefined) child.stdin?.end(input);
}
