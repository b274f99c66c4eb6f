/**
 * A list item's problem, shown in the list itself. Keystatic 0.6.9 refuses to save an entry with a
 * mistake inside a list item (a tile, a closed day, a data file's entry) but, once the item's
 * dialog is closed, says so nowhere: the item's row now carries the problem, after its label.
 */
import type { ComponentSchema } from '@keystatic/core';

/** What Keystatic hands a list's `itemLabel`: a value's fields, as the editor holds them. */
type Preview = {
  schema: ComponentSchema;
  value?: unknown;
  fields?: Record<string, Preview>;
  elements?: readonly Preview[];
};

/** The first problem that would stop Save, as Keystatic's own check finds it, or undefined. */
export function firstProblem(preview: Preview): string | undefined {
  const { schema } = preview;
  if (schema.kind === 'form') {
    try {
      (schema.validate as (value: unknown, extra?: unknown) => unknown)(preview.value);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }
  if (schema.kind === 'object') {
    for (const field of Object.values(preview.fields ?? {})) {
      const problem = firstProblem(field);
      if (problem) return problem;
    }
    return undefined;
  }
  if (schema.kind === 'array') {
    const elements = preview.elements ?? [];
    const { min, max } = schema.validation?.length ?? {};
    if (min !== undefined && elements.length < min) return `${schema.label}: at least ${min}`;
    if (max !== undefined && elements.length > max) return `${schema.label}: at most ${max}`;
    for (const element of elements) {
      const problem = firstProblem(element);
      if (problem) return problem;
    }
    // A list whose items' ids must differ (hosts): each id against the others', as Save checks it.
    // An item's own row cannot see the others: the row of what holds the list says it.
    const slugField = (schema as { slugField?: string }).slugField;
    if (slugField) {
      const ids = elements.map((element) => element.fields?.[slugField]);
      for (const [index, id] of ids.entries()) {
        if (!id) continue;
        const others = new Set(ids.filter((_, other) => other !== index).map((o) => o?.value));
        try {
          (id.schema as { validate(value: unknown, extra: unknown): unknown }).validate(id.value, {
            slugField: { slugs: others, glob: '*' },
          });
        } catch (error) {
          return (error as Error).message;
        }
      }
    }
  }
  return undefined;
}

/** A list's item label, followed by the item's first problem when it has one. */
export const flagged =
  <Props>(label: (props: Props) => string) =>
  (props: Props): string => {
    const problem = firstProblem(props as Preview);
    return problem ? `${label(props)} — needs fixing: ${problem}` : label(props);
  };
