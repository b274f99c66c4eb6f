/**
 * Opens the configured store (./store.ts; its records and ports are in ./types.ts). The engines'
 * drivers are loaded only when chosen, so that a server on SQLite never loads pg, and neither
 * imports this file back.
 */
import { databaseUrlProblem } from '../config.ts';
import type { EnquiryStore, StoreLocation, StoreOptions } from './types.ts';

/** Opens (and migrates) the configured store. */
export async function openStore(
  { databaseUrl, databasePath }: StoreLocation,
  options: StoreOptions = {},
): Promise<EnquiryStore> {
  if (databaseUrl) {
    // Not a host name made of it (`nonsense` was looked up as a host called "base").
    const problem = databaseUrlProblem(databaseUrl);
    if (problem) throw new Error(problem);
    const { PostgresStore } = await import('./postgres/store.ts');
    return PostgresStore.open(databaseUrl, options);
  }
  const { SqliteStore } = await import('./sqlite.ts');
  return new SqliteStore(databasePath, options);
}
