/** What an editor field's check throws and runs. */

/** What a check throws: its message is what Keystatic shows under the field, and Save names. */
export class FieldError extends Error {}

/** The problem of a value, or undefined: what a field's `validate` throws. */
export const problemOf = (check: () => unknown) => {
  try {
    check();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

/** A zod schema of the site's (the domain's rule), as far as the editor runs it. */
export type Check = {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
};
