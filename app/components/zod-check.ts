import type { FormCheck } from './checked-form.tsx'

/** A schema's `safeParse`, as zod gives it (typed by shape, so this module never loads zod itself). */
interface SafeParsing {
  safeParse(value: unknown): {
    success: boolean
    error?: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }
  }
}

/**
 * The check of a schema the server also parses with (its first message per field), for pages that may load zod.
 * The values are read as the server reads the post: an empty field is absent, a field that repeats is its list.
 */
export function zodCheck(schema: SafeParsing): FormCheck {
  return (_, lists) => {
    const payload: Record<string, string | string[]> = {}
    for (const [name, list] of Object.entries(lists)) {
      const sent = list.filter((value) => value !== '')
      if (sent.length) payload[name] = sent.length === 1 ? sent[0]! : sent
    }
    const problems: Record<string, string> = {}
    for (const issue of schema.safeParse(payload).error?.issues ?? []) {
      const name = String(issue.path[0] ?? '')
      problems[name] ??= issue.message
    }
    return problems
  }
}
