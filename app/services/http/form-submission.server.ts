import { parseWithZod, type Submission, type SubmissionResult } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { z } from 'zod'
import type { AppError, ErrorKind, FieldErrors } from '#app/utils/app-error.ts'
import { STATUS_OF_KIND } from './error-status.server.ts'

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

/**
 * The fields of a posted form too long (or not text) to send back with a refusal: a value over `max` characters is
 * left out of the reply (`hideFields`), so a refusal never echoes a huge body into the page. A field without a name
 * is no field of the form (conform reads none into the values), so there is nothing of it to hide.
 */
export function fieldsTooLongToEcho(form: FormData, max: number): string[] {
  return [
    ...new Set(
      [...form.entries()]
        .filter(([name, value]) => name !== '' && (typeof value !== 'string' || value.length > max))
        .map(([name]) => name),
    ),
  ]
}

/** A refused submission's messages as one text, for a form whose page shows a single refusal. */
export function refusalMessage(submission: { error?: Record<string, string[] | null> | null }) {
  const messages = [...new Set(Object.values(submission.error ?? {}).flatMap((list) => list ?? []))]
  return messages.join(' ') || 'The form could not be read.'
}

/**
 * The reply of a form read without conform (the event form's streamed upload), in the shape a `reply()` has: the
 * values to show again (null when the body could not be read) and the refusal's messages per field, or its message
 * at `field` ('' = the form's own) when it names none.
 */
export function refusalReply<V>(refusal: AppError, initialValue: V | null, field = '') {
  const named = Object.keys(refusal.fieldErrors).length > 0
  const error: FieldErrors = named ? refusal.fieldErrors : { [field]: [refusal.message] }
  return { status: 'error' as const, initialValue, error }
}

/**
 * The answer to a refused form, in the one shape every form page reads: `{ result }` (what `useCheckedForm` renders)
 * beside whatever else the page's data carries, 400 unless the refusal is of another kind (a taken email: conflict).
 */
export function formRefusal<
  Result extends SubmissionResult<string[]> | ReturnType<typeof refusalReply> | null,
  Extra extends Record<string, unknown> = Record<never, never>,
>(result: Result, options: { kind?: ErrorKind; headers?: HeadersInit; extra?: Extra } = {}) {
  return data(
    { ...(options.extra as Extra), result },
    { status: STATUS_OF_KIND[options.kind ?? 'invalid'], headers: options.headers },
  )
}
