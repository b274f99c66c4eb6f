/**
 * One value for the whole process, whichever build asks: with EDITING=on a process loads each
 * release's build beside the first (./releases/live-site.ts), each with its own copy of the server's
 * modules, while the services stay the first build's (./app.ts). What must be one for the process
 * (the services, the shutdown's tasks, an error class that a service throws and a route catches,
 * for `instanceof` to hold) is kept on `globalThis` under a registered symbol.
 */
export function processWide<T>(name: string, make: () => T): T {
  const key = Symbol.for(`agency-site.${name}`);
  return ((globalThis as Record<symbol, unknown>)[key] ??= make()) as T;
}
