import { parseWithZod, type Submission, type SubmissionResult } from '@conform-to/zod/v4'
import type { z } from 'zod'

/**
 * The server half of the one form recipe (docs/decisions/022-one-form-recipe.md): a posted form read with the
 * model's zod schema (conform's `parseWithZod`, on the server only). A failed submission's `reply()` is what the
 * page sends back and `useCheckedForm` (app/components/checked-form.tsx) renders: the values sent (`hideFields` left
 * out) and the messages per field ('' = the form's own).
 */

export type { Submission, SubmissionResult }

/** A submission read as conform reads it: empty fields absent, numbers and checkboxes coerced for the schema. */
export function parseFormSubmission<S extends z.ZodType>(
  form: FormData,
  schema: S,
  options?: { async?: false; disableAutoCoercion?: boolean },
): Submission<z.input<S>, string[], z.output<S>>
export function parseFormSubmission<S extends z.ZodType>(
  form: FormData,
  schema: S,
  options: { async: true; disableAutoCoercion?: boolean },
): Promise<Submission<z.input<S>, string[], z.output<S>>>
export function parseFormSubmission<S extends z.ZodType>(
  form: FormData,
  schema: S,
  { async = false, disableAutoCoercion = false }: { async?: boolean; disableAutoCoercion?: boolean } = {},
) {
  return async
    ? parseWithZod(form, { schema, async: true, disableAutoCoercion })
    : parseWithZod(form, { schema, disableAutoCoercion })
}

/** A refused submission's messages as one text, for a form whose page shows a single refusal. */
export function refusalMessage(submission: { error?: Record<string, string[] | null> | null }) {
  const messages = [...new Set(Object.values(submission.error ?? {}).flatMap((list) => list ?? []))]
  return messages.join(' ') || 'The form could not be read.'
}
