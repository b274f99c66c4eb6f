// Functions of at most MAX_LINES lines in the server and the Astro-side library (issue 54): a longer
// one is split by what it decides. Part of `npm run check:architecture` (./check-architecture.mjs).
// A function's length is its body's, from the line it opens on to the line it closes on, the
// functions written inside it included: closures are what made the long ones long.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const MAX_LINES = 80;

/** The folders checked, from the project's root. */
export const FOLDERS = ['src/server', 'src/lib'];

/**
 * Functions left over the limit for now, as `path name`, each with why. One that is no longer
 * over it (or no longer there, in a file that is) fails the check too, so that the list stays true.
 */
export const EXCEPTIONS = new Map();

const SOURCE = /\.(?:[cm]?[jt]s|tsx)$/;

/** A function's name as a reader finds it: its own, its variable's or property's, else where it is. */
function nameOf(node, sourceFile) {
  const named = node.name ?? (ts.isVariableDeclaration(node.parent) && node.parent.name);
  const property =
    (ts.isPropertyAssignment(node.parent) || ts.isPropertyDeclaration(node.parent)) &&
    node.parent.name;
  const name = named || property;
  if (name) return name.getText(sourceFile);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  for (let up = node.parent; up; up = up.parent)
    if (ts.isFunctionLike(up)) return `a function in ${nameOf(up, sourceFile)}`;
  return 'a function';
}

/** Every function of a file's text: its name, the line it starts on (from 1) and its length. */
export function functionLengths(fileName, text) {
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position) => sourceFile.getLineAndCharacterOfPosition(position).line + 1;
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const first = lineOf(node.body.getStart(sourceFile));
      found.push({
        name: nameOf(node, sourceFile),
        line: lineOf(node.getStart(sourceFile)),
        lines: lineOf(node.body.end) - first + 1,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** The source files of `folders` under `root`, as paths from it (a folder it lacks has none). */
function sourceFiles(root, folders) {
  return folders.flatMap((folder) => {
    let entries;
    try {
      entries = readdirSync(join(root, folder), { recursive: true });
    } catch {
      return []; // The import rules' own test checks trees without it.
    }
    return entries
      .filter((name) => SOURCE.test(name) && !name.endsWith('.d.ts'))
      .map((name) => relative(root, join(root, folder, name)));
  });
}

/**
 * What breaks the limit under `root`: each function over it that is not an exception, and each
 * exception of a file there whose function is no longer over it. One line each.
 */
export function lengthProblems(
  root,
  { folders = FOLDERS, max = MAX_LINES, exceptions = EXCEPTIONS } = {},
) {
  const files = sourceFiles(root, folders);
  const problems = [];
  const over = new Set();
  for (const path of files)
    for (const { name, line, lines } of functionLengths(
      path,
      readFileSync(join(root, path), 'utf8'),
    )) {
      if (lines <= max) continue;
      over.add(`${path} ${name}`);
      if (!exceptions.has(`${path} ${name}`))
        problems.push(
          `${path}:${line} ${name}: ${lines} lines, over ${max}: split it by what it decides`,
        );
    }
  for (const key of exceptions.keys())
    if (files.includes(key.slice(0, key.indexOf(' '))) && !over.has(key))
      problems.push(
        `${key} is ${max} lines or fewer now: take it off EXCEPTIONS in scripts/function-lengths.mjs`,
      );
  return problems;
}
