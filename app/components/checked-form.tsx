import { useEffect, useRef, useState, type FormEvent, type SyntheticEvent } from 'react'
import { useHydrated } from './account-ui.tsx'

/**
 * The browser half of the one form recipe (docs/decisions/022-one-form-recipe.md); the server half is
 * `parseFormSubmission` (app/services/http/form-submission.server.ts), whose `reply()` this renders. Every form of the
 * app uses it, drawing its fields with `FormField` (form-field.tsx). It is under 1 KB gzip: conform's browser
 * runtime would be 9 KB, and pages with a script budget check with zod-free rules (`app/models/<domain>/*-rules.ts`), while
 * staff pages may check with the server's own zod schema (`zodCheck`, zod-check.ts). Without JavaScript the server's reply is
 * rendered (and, with `browserChecksWithoutJs`, the browser's own checks run before the post); with it, the form
 * checks a field when it is left (or only on submit), re-checks it while it is fixed, and does not submit while a
 * check fails, focusing the first field in question.
 */

/** The part of the server's reply the page reads: what was sent back and the errors per field ('' = form). */
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

function valuesOf(form: HTMLFormElement, submitter?: HTMLElement | null): [FieldValues, FieldLists] {
  const values: FieldValues = {}
  const lists: FieldLists = {}
  // The pressed button's name and value belong to the submission (an `intent` that picks the rule).
  for (const [name, value] of new FormData(form, submitter ?? undefined)) {
    if (typeof value !== 'string') continue
    values[name] = value
    ;(lists[name] ??= []).push(value)
  }
  return [values, lists]
}

/**
 * Once the page's scripts have arrived, hands `adopt` the form as the visitor left it: what was typed or ticked on a
 * slow connection before then. React 18 keeps its controlled fields at the values it rendered and puts those back at
 * the next render; a form whose state adopts these keeps the visitor's work.
 */
export function useFormAsLeftBeforeScripts(
  formOf: () => HTMLFormElement | null | undefined,
  adopt: (values: FieldValues, lists: FieldLists, form: HTMLFormElement) => void,
) {
  useEffect(() => {
    const form = formOf()
    if (form) adopt(...valuesOf(form), form)
    // Once, at hydration: after that every change reaches the state through its own handler.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
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
  browserChecksWithoutJs = false,
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
  /**
   * Without JavaScript the browser's own checks (required, lengths, ranges) run before the post; with it they give
   * way to the messages at the fields. Off: the server's messages answer every post.
   */
  browserChecksWithoutJs?: boolean
  /** Called with the problems when a submit is held back. */
  onInvalid?: (problems: Record<string, string>, values: FieldValues) => void
}) {
  const [errors, setErrors] = useState<Errors>(() => errorsOf(reply))
  // Fields whose errors are shown and kept up to date while typing: the ones left or submitted once.
  const checked = useRef(new Set<string>())
  const hydrated = useHydrated()
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
    noValidate: browserChecksWithoutJs ? hydrated : true,
    onSubmit(event: FormEvent<HTMLFormElement>) {
      const form = event.currentTarget
      for (const name of trimmed) {
        const input = form.elements.namedItem(name)
        if (input instanceof HTMLInputElement) input.value = input.value.trim()
      }
      const submitter = (event.nativeEvent as SubmitEvent | undefined)?.submitter
      const [values, lists] = valuesOf(form, submitter)
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
    const fieldId = `${id}-${name}`
    // `FormField` (form-field.tsx) draws the errors and wires aria-invalid / aria-describedby to the control.
    return {
      id: fieldId,
      errors: fieldErrors,
      errorId,
      inputProps: { id: fieldId, name, defaultValue: typeof sent === 'string' ? sent : defaultValue[name] },
    }
  }

  return { formProps, field, formErrors: errors[''] ?? [], formErrorId: `${id}-error` }
}
