/**
 * Which store backends the store tests run against: both, or only those STORE_BACKENDS names
 * (`npm run test:quick` sets `sqlite`, so that no PostgreSQL server is started). Read by
 * vitest.config.ts (the PostgreSQL server and the PostgreSQL-only files) and store-backends.ts
 * (the tests run against each backend).
 */
export const storeBackendNames = ['sqlite', 'postgresql'] as const;
export type StoreBackendName = (typeof storeBackendNames)[number];

export function selectedStoreBackends(
  names = process.env.STORE_BACKENDS || storeBackendNames.join(','),
): StoreBackendName[] {
  const selected = names.split(',').map((name) => name.trim());
  const unknown = selected.filter(
    (name) => !(storeBackendNames as readonly string[]).includes(name),
  );
  if (unknown.length) {
    throw new Error(
      `STORE_BACKENDS: no backend ${unknown.join(', ')} (${storeBackendNames.join(', ')})`,
    );
  }
  return storeBackendNames.filter((name) => selected.includes(name));
}
