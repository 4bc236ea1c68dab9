import { useEffect, useRef, useState, type FormEvent, type SyntheticEvent } from 'react'

/**
 * A form the server checks (conform's `parseWithZod(…).reply()` is the answer it sends back) and the browser
 * pre-checks with plain rules, for pages whose script must stay small: conform's browser runtime alone would be
 * 9 KB gzip, zod another 24 KB. The browser's own constraint bubbles stay off (the inputs' constraints still tell
 * assistive technology what is expected): without JavaScript the server's reply is rendered; with it, the form checks a field when it is left (or only on submit), re-checks it while it is fixed,
 * and does not submit while a check fails, focusing the first field in question.
 */

/** The part of conform's SubmissionResult the page reads: what was sent back and the errors per field ('' = form). */
export interface FormReply {
  initialValue?: Record<string, unknown> | null
  error?: Record<string, string[] | null | undefined> | null
}

export type FieldValues = Record<string, string>
/** Every value of each field, for fields that repeat (checkboxes of one name). */
export type FieldLists = Record<string, string[]>
/** The problem per field name for the values given (only the fields with one). */
export type FormCheck = (values: FieldValues, lists: FieldLists) => Record<string, string>

type Errors = Record<string, string[]>

function errorsOf(reply: FormReply | null | undefined): Errors {
  return Object.fromEntries(
    Object.entries(reply?.error ?? {}).flatMap(([name, messages]) =>
      messages?.length ? [[name, messages]] : [],
    ),
  )
}

function valuesOf(form: HTMLFormElement): [FieldValues, FieldLists] {
  const values: FieldValues = {}
  const lists: FieldLists = {}
  for (const [name, value] of new FormData(form)) {
    if (typeof value !== 'string') continue
    values[name] = value
    ;(lists[name] ??= []).push(value)
  }
  return [values, lists]
}

function fieldNameOf(event: SyntheticEvent) {
  const target = event.target as Partial<HTMLInputElement>
  return typeof target.name === 'string' && target.name ? target.name : null
}

export function useCheckedForm({
  id,
  reply,
  check,
  checkOnBlur = false,
  defaultValue = {},
  trimmed = [],
  onInvalid,
}: {
  id: string
  reply?: FormReply | null
  check: FormCheck
  /** Check each field when it is left, not only on submit. */
  checkOnBlur?: boolean
  defaultValue?: Record<string, string | undefined>
  /** Fields whose value is trimmed before it is checked and sent. */
  trimmed?: readonly string[]
  /** Called with the problems when a submit is held back. */
  onInvalid?: (problems: Record<string, string>, values: FieldValues) => void
}) {
  const [errors, setErrors] = useState<Errors>(() => errorsOf(reply))
  // Fields whose errors are shown and kept up to date while typing: the ones left or submitted once.
  const checked = useRef(new Set<string>())
  useEffect(() => setErrors(errorsOf(reply)), [reply])

  function recheck(form: HTMLFormElement) {
    const problems = check(...valuesOf(form))
    setErrors((current) => {
      const next: Errors = { ...(current[''] ? { '': current[''] } : {}) }
      for (const name of checked.current) if (problems[name]) next[name] = [problems[name]]
      return next
    })
    return problems
  }

  const formProps = {
    id,
    noValidate: true,
    onSubmit(event: FormEvent<HTMLFormElement>) {
      const form = event.currentTarget
      for (const name of trimmed) {
        const input = form.elements.namedItem(name)
        if (input instanceof HTMLInputElement) input.value = input.value.trim()
      }
      const [values, lists] = valuesOf(form)
      const problems = check(values, lists)
      for (const name of Object.keys(problems)) checked.current.add(name)
      const names = Object.keys(problems)
      if (names.length === 0) return
      event.preventDefault()
      recheck(form)
      const first = [...form.elements].find(
        (element): element is HTMLInputElement =>
          'name' in element && names.includes((element as HTMLInputElement).name),
      )
      first?.focus()
      onInvalid?.(problems, values)
    },
    onBlur(event: FormEvent<HTMLFormElement>) {
      const name = fieldNameOf(event)
      if (!checkOnBlur || !name) return
      checked.current.add(name)
      recheck(event.currentTarget)
    },
    onInput(event: FormEvent<HTMLFormElement>) {
      const name = fieldNameOf(event)
      if (name && (checked.current.has(name) || errors[name])) {
        checked.current.add(name)
        recheck(event.currentTarget)
      }
    },
  }

  function field(name: string) {
    const fieldErrors = errors[name]
    const errorId = `${id}-${name}-error`
    const sent = reply?.initialValue?.[name]
    const aria = {
      'aria-invalid': fieldErrors ? true : undefined,
      'aria-describedby': fieldErrors ? errorId : undefined,
    }
    return {
      errors: fieldErrors,
      errorId,
      /** For inputs that keep their own value and id. */
      aria,
      inputProps: {
        id: `${id}-${name}`,
        name,
        defaultValue: typeof sent === 'string' ? sent : defaultValue[name],
        ...aria,
      },
    }
  }

  return { formProps, field, formErrors: errors[''] ?? [], formErrorId: `${id}-error` }
}
