/**
 * Opens the configured store (./store.ts; its records and ports are in ./types.ts). The engines'
 * drivers are loaded only when chosen, so that a server on SQLite never loads pg, and neither
 * imports this file back.
 */
import type { EnquiryStore, StoreLocation, StoreOptions } from './types.ts';

/** Opens (and migrates) the configured store. */
export async function openStore(
  { databaseUrl, databasePath }: StoreLocation,
  options: StoreOptions = {},
): Promise<EnquiryStore> {
  if (databaseUrl) {
    const { PostgresStore } = await import('./postgres/store.ts');
    return PostgresStore.open(databaseUrl, options);
  }
  const { SqliteStore } = await import('./sqlite.ts');
  return new SqliteStore(databasePath, options);
}
