/**
 * Runs git for the content's history from a small process of its own (./git-runner-process.ts),
 * started once. Starting a program from the dev server copies the dev server's memory map, a
 * gigabyte or so: some 140 ms of its one thread for every git command (ten for a save and its
 * History), during which the editor's requests wait. From the small process it costs a few ms.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { siteRoot } from '../roots.ts';

export interface GitRequest {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  input?: string;
}

export interface GitAnswer {
  id: number;
  stdout: string;
  stderr: string;
  /** Why git failed (its exit code, or that it could not start); absent when it succeeded. */
  error?: string;
}

// Joined by hand: Vite takes `new URL('./file', import.meta.url)` for an asset to bundle. In the
// live site's helper this module is a chunk of the editor's build: the script is the project's.
const beside = join(dirname(fileURLToPath(import.meta.url)), 'git-runner-process.ts');
const script = existsSync(beside)
  ? beside
  : join(siteRoot(), 'src/editor/dev-server/history/git-runner-process.ts');

let runner: ChildProcessWithoutNullStreams | undefined;
let nextId = 0;
const waiting = new Map<number, (answer: GitAnswer) => void>();

function failAll(why: string) {
  for (const [id, done] of waiting) done({ id, stdout: '', stderr: '', error: why });
  waiting.clear();
}

function start(): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [script], { stdio: 'pipe' });
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const answer = JSON.parse(buffered.slice(0, end)) as GitAnswer;
      buffered = buffered.slice(end + 1);
      waiting.get(answer.id)?.(answer);
      waiting.delete(answer.id);
      if (waiting.size === 0) holdOpen(child, false);
    }
  });
  child.stderr.resume();
  child.on('error', (error) => failAll(`the git runner did not start: ${error.message}`));
  child.on('exit', () => {
    runner = undefined;
    failAll('the git runner stopped');
  });
  holdOpen(child, false);
  return child;
}

/**
 * Keeps the process running while an answer is awaited, and never otherwise: the runner ends
 * when its input closes, so it never holds up the dev server's (or a test's) exit.
 */
function holdOpen(child: ChildProcessWithoutNullStreams, hold: boolean) {
  const handles = [child, child.stdin, child.stdout, child.stderr] as unknown as {
    ref?: () => void;
    unref?: () => void;
  }[];
  for (const handle of handles) (hold ? handle.ref : handle.unref)?.call(handle);
}

/** Runs `git args` in `cwd`: its output, or the answer saying why it failed. */
export function runGit(request: GitRequest): Promise<GitAnswer> {
  runner ??= start();
  const id = nextId++;
  const answer = new Promise<GitAnswer>((done) => waiting.set(id, done));
  holdOpen(runner, true);
  runner.stdin.write(`${JSON.stringify({ id, ...request })}\n`);
  return answer;
}
