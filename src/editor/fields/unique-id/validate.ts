import type { Rule, Span } from '../../../domain/content-rules.ts';

export const noIds: ReadonlySet<string> = new Set();

/** What is wrong with an item's id: its length, its form, or another item's (`others`). */
export const idProblem =
  (label: string, rule: Rule, length: Span) =>
  (id: string, others: ReadonlySet<string> = noIds) => {
    if (id.length < length.min || id.length > length.max)
      return `${label} must be ${length.min}-${length.max} characters`;
    if (!rule.regex.test(id)) return `${label} must be ${rule.message}`;
    if (others.has(id))
      return `"${id}" is the ${label.toLowerCase()} of another item: each needs its own`;
    return undefined;
  };
