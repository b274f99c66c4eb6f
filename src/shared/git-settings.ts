/**
 * Settings every git the site runs over the content carries (the server's publishes and draft, the
 * editor's History), above any repository's own: a folder of the content that is a repository of
 * its own (a `.git` sent to Keystatic's API) is never descended into, so its settings, such as a
 * `core.fsmonitor` command, never run as the site's user.
 */
const SETTINGS: [string, string][] = [
  ['core.fsmonitor', 'false'],
  ['submodule.recurse', 'false'],
  ['diff.ignoreSubmodules', 'all'],
  ['status.submoduleSummary', 'false'],
];

/** The settings as git's environment takes them (`GIT_CONFIG_COUNT`: as `-c`, for every command). */
export const GIT_SETTINGS: Record<string, string> = Object.fromEntries([
  ['GIT_CONFIG_COUNT', String(SETTINGS.length)],
  ...SETTINGS.flatMap(([key, value], i) => [
    [`GIT_CONFIG_KEY_${i}`, key],
    [`GIT_CONFIG_VALUE_${i}`, value],
  ]),
]);
