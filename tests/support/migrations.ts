/** The store's migrations as the tests make earlier stores with them (../../src/server/store/migrations.ts). */
import { stepsOf, type Engine, type Step } from '../../src/server/store/migrations';

/** An engine's first `count` steps: the schema of a store that code made (a step of code too). */
export const madeSteps = (engine: Engine, count: number): Step[] => stepsOf(engine).slice(0, count);

/** An engine's first `count` steps, as SQL: the schema of a store that code made. */
export const sqlSteps = (engine: Engine, count: number): string[] =>
  madeSteps(engine, count).map((step, i) => {
    if (typeof step !== 'string') throw new Error(`Step ${i + 1} of ${engine} is code, not SQL.`);
    return step;
  });

/**
 * How many steps each engine had run before migration `n` (as numbered in migrations.ts's
 * comments: the first is 1): a store made just before it.
 */
export const stepsBefore = (n: number) => ({
  sqlite: stepsOf('sqlite', n - 1).length,
  postgresql: stepsOf('postgres', n - 1).length,
});
