/**
 * Reading a zod result as the forms show it: one message per field, keyed by the dotted path
 * ('integrations.1.provider'); issues on the object itself use the key FORM_ERROR_KEY.
 */

interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** Structural: a zod `safeParse` result (or anything with the same shape). */
export interface ParseResultLike {
  readonly success: boolean;
  readonly error?: { readonly issues: readonly IssueLike[] } | undefined;
}

export const FORM_ERROR_KEY = '';

function key(path: readonly PropertyKey[]): string {
  return path.map((part) => String(part)).join('.');
}

/** The first message of each field, in issue order. Empty when the result is a success. */
export function fieldErrors(result: ParseResultLike): Record<string, string> {
  const errors: Record<string, string> = {};
  if (result.success || !result.error) return errors;
  for (const issue of result.error.issues) {
    const field = key(issue.path);
    if (!(field in errors)) errors[field] = issue.message;
  }
  return errors;
}

/** The first message overall, or of one field (dotted path) when given; undefined when none. */
export function firstError(result: ParseResultLike, field?: string): string | undefined {
  if (result.success || !result.error) return undefined;
  const issue = result.error.issues.find((candidate) => field === undefined || key(candidate.path) === field);
  return issue?.message;
}
