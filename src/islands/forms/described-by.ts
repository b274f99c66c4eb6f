/** Attributes that tie a control to its error message (a FieldError with the id `${id}-error`). */
export const describedBy = (id: string, message: string | undefined) =>
  message ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
