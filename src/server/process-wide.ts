/**
 * One value for the whole process, whichever build asks: with EDITING=on a process loads each
 * release's build beside the first (./releases/live-site.ts), each with its own copy of the server's
 * modules, while the services stay the first build's (./app.ts). An error class that a service
 * throws and a route catches must be one class for `instanceof` to hold across them: kept on
 * `globalThis` under a registered symbol, as ./shutdown.ts's tasks are.
 */
export function processWide<T>(name: string, make: () => T): T {
  const key = Symbol.for(`agency-site.${name}`);
  return ((globalThis as Record<symbol, unknown>)[key] ??= make()) as T;
}
