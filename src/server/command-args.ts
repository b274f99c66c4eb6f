/**
 * The options of the staff's and the operator's commands (`npm run enquiries`, `vitals`, `backup`,
 * `restore`, `store:copy`), read as Node's parseArgs reads them, with the answers a person at a
 * terminal expects: `--help` prints the command's usage, and a mistyped or incomplete option says
 * what is wrong, then the usage, in two lines (exit 2), where parseArgs threw a stack trace.
 * Nothing of the arguments is repeated but an option's name: a value may be a password (a URL).
 * And the file a command writes (`--out`, `--html`): written, or why not in one line.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { terminalText } from './safe-text.ts';

/** The exit code of a command called wrongly, as `npm run store:copy` has long used. */
export const WRONG_CALL = 2;

/** What is wrong with the arguments, from parseArgs's error, with no value of the arguments in it. */
export function argumentsProblem(error: unknown): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) return undefined;
  const text = String(message);
  const option = /'(-{1,2}[A-Za-z][\w-]*)/.exec(text)?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return option ? `There is no option ${option}.` : 'There is no such option.';
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (!option) return 'An option is given a value it cannot take.';
      if (/missing/.test(text)) return `${option} needs a value.`;
      // A value that starts with a dash (`--keep -3`) reads as another option.
      if (/ambiguous/.test(text))
        return `${option} needs a value; one that starts with a dash is written ${option}=VALUE.`;
      return `${option} takes no value.`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return 'This command takes nothing but its options.';
    default:
      return 'The options cannot be read.';
  }
}

/** Ends the process as for a wrong call: what is wrong, then the usage, on stderr (exit 2). */
export function wrongCall(problem: string, usage: string): never {
  console.error(usage ? `${problem}\n${usage}` : problem);
  return process.exit(WRONG_CALL);
}

/**
 * The command's options, or the process ends: with `help` (its usage, unless told more) on stdout
 * for `--help` or `-h` (exit 0), with what is wrong and the usage on stderr for a wrong call (exit 2).
 */
export function commandArgs<T extends ParseArgsConfig>(usage: string, config: T, help = usage) {
  const args = config.args ?? process.argv.slice(2);
  const options = args.slice(0, args.includes('--') ? args.indexOf('--') : undefined);
  if (options.includes('--help') || options.includes('-h')) {
    console.log(help);
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (error) {
    const problem = argumentsProblem(error);
    if (problem === undefined) throw error;
    return wrongCall(problem, usage);
  }
}

/**
 * Writes a command's file, or ends the process saying why in one line (exit 1), where Node threw a
 * stack trace. Node's message names the file again ("EISDIR: …, open '…'"): once is enough. The
 * file holds prospects' names and addresses (the CSV): readable by its owner alone, whatever the
 * umask. A file is written anew under a name of its own and then takes the name asked for, so a
 * file or link someone else left there (in /tmp: their file, which they could read it from, or a
 * link to one of ours) is replaced, never written through; a terminal or a pipe is written to.
 */
export function writeOutput(path: string, text: string) {
  try {
    if (statSync(path, { throwIfNoEntry: false })?.isFile() === false) {
      writeFileSync(path, text);
      return;
    }
    const partial = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}`);
    const fd = openSync(partial, 'wx', 0o600);
    try {
      try {
        fchmodSync(fd, 0o600);
        writeFileSync(fd, text);
      } finally {
        closeSync(fd);
      }
      renameSync(partial, path);
    } catch (error) {
      rmSync(partial, { force: true });
      throw error;
    }
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).replace(
      /, (?:open|rename) '.*'$/s,
      '',
    );
    console.error(`Cannot write ${terminalText(path)}: ${why}`);
    process.exit(1);
  }
}
