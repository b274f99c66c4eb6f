/**
 * A shipped migration step (src/server/store/migrations.ts, as each engine runs them) never changes. Stores in use have already run it and will not run it again,
 * so an edit would reach new stores only and leave the two kinds apart; a change of schema is a
 * new migration at the end. Each shipped migration is pinned here by its SHA-256 (first 16 hex
 * digits): add the checksum of a new one when it ships, and never edit one that is here.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { stepsOf, type Step } from '../../src/server/store/migrations';

const shipped = {
  sqlite: [
    '70f144a1f24f134b',
    '54327b645ef41fb3',
    'cb04e920ff6acd6b',
    'dfc1cb0bc5d23643',
    'e19ba17f660bf562',
    '62aa1d6b89304c42',
    'fc3305903bbb784c',
    '1ee3031c9c32f99e',
    'f428ec7885cfb1f5',
    '8c7157bddf20eb63',
    'f9c27a478a51cb16',
    'eac7cebb8e7bc762',
    '2d0d929a2229e253',
    '50ae1f88abcff557',
    '9cdc7fb701ecbc7b',
    'ab6fd204b9f2925a',
    '087cee3f2ac95f0e',
    '0faa10f22a6aa563',
    '9eacf6ec4dbce01a',
    '60e3086912eef823',
    'db5674ecca01408c',
    'b6d6c7cc68d15d57',
    'b948b3a9caa11ee3',
    'e9f7724e67d2ff66',
    'b0404fb4e1fb8b47',
    '1525eba24c08a86c',
    '3bda2c0919f5acd0',
    '32e69444cc8ba6a6',
    'b8f07ea14238b599',
  ],
  postgresql: [
    '64ba7b9b06f00990',
    '97f266ee4085e11b',
    '64298f8249cd9550',
    '294d539f4cf2146e',
    '1ee3031c9c32f99e',
    '7c93d0618a4d6507',
    '3eb2413eb825e263',
    '3491fdc5964b8fb4',
    '2048d4a666ce92e3',
    'b258a5fd003315a8',
    '50ae1f88abcff557',
    '9cdc7fb701ecbc7b',
    '2d4b26e5bae2dca4',
    '087cee3f2ac95f0e',
    '0faa10f22a6aa563',
    '83bc9497b81c393d',
    '228cdcb29c4f3ffa',
    'bd1322d1a4511c9b',
    'b6d6c7cc68d15d57',
    '0089ab1ea5f7456d',
    'e9f7724e67d2ff66',
    'b0404fb4e1fb8b47',
    '1525eba24c08a86c',
    '3bda2c0919f5acd0',
    'd1cbb628a76fa69b',
    'b8f07ea14238b599',
  ],
};

/** A step's checksum: of its SQL, or of a step of code's name. */
const checksum = (step: Step) =>
  createHash('sha256')
    .update(typeof step === 'string' ? step : step.name)
    .digest('hex')
    .slice(0, 16);

describe.each([
  ['sqlite', stepsOf('sqlite')],
  ['postgresql', stepsOf('postgres')],
] as const)('the %s migrations', (kind, migrations) => {
  it('keep every shipped one as it shipped, in its place', () => {
    expect(migrations.slice(0, shipped[kind].length).map(checksum)).toEqual(shipped[kind]);
  });
});
