/**
 * A shipped migration never changes. Stores in use have already run it and will not run it again,
 * so an edit would reach new stores only and leave the two kinds apart; a change of schema is a
 * new migration at the end. Each shipped migration is pinned here by its SHA-256 (first 16 hex
 * digits): add the checksum of a new one when it ships, and never edit one that is here.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { postgresMigrations } from '../../src/server/store/postgres/migrations';
import { migrations as sqliteMigrations } from '../../src/server/store/sqlite';

const shipped = {
  sqlite: [
    '70f144a1f24f134b',
    '54327b645ef41fb3',
    'cb04e920ff6acd6b',
    'dfc1cb0bc5d23643',
    'e19ba17f660bf562',
  ],
  postgresql: ['64ba7b9b06f00990', '97f266ee4085e11b'],
};

const checksum = (sql: string) => createHash('sha256').update(sql).digest('hex').slice(0, 16);

describe.each([
  ['sqlite', sqliteMigrations],
  ['postgresql', postgresMigrations],
] as const)('the %s migrations', (kind, migrations) => {
  it('keep every shipped one as it shipped, in its place', () => {
    expect(migrations.slice(0, shipped[kind].length).map(checksum)).toEqual(shipped[kind]);
  });
});
