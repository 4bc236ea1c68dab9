import { useFetcher } from '@remix-run/react'
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type RefObject } from 'react'
import { FormField } from '#app/components/form-field.tsx'
import {
  FILL_FROM_LINK_INTENT,
  LINK_ADDRESS_MAX,
  LINK_FIELD_LABELS,
  LINK_SOURCE_LABELS,
  type LinkFillReport,
  type LinkFormValues,
} from '#app/models/ads/link-event-form.ts'
import type { CheckedField } from './values.ts'

const FORM_ID = 'fill-from-link-form'
const ACTION = '/dashboard/events/new'

export const FILL_BUTTON_LABEL = 'Fill from link'
export const FILL_FAILED_MESSAGE = 'The link could not be read. Please try again.'

/** What the Create page hands the section: the answer of a fill without JavaScript, and a photo kept from one. */
export interface FillFromLinkState {
  report?: LinkFillReport | null
  /** The address as typed, shown again with its refusal. */
  linkAddress?: string
  /** The photo a fill without JavaScript keeps for the form's next post. */
  linkPhotoName?: string | null
}

/** The answer to the section's script: the fields and the photo's bytes, or the refusal's message. */
interface ScriptedAnswer {
  filled?: { values: LinkFormValues; report: LinkFillReport }
  photo?: { name: string; type: string; base64: string } | null
  message?: string
}

interface Setters {
  setTitle: (value: string) => void
  setDescription: (value: string) => void
  setDates: (dates: string[]) => void
  setEventDate: (value: string) => void
  setPhotoName: (value: string) => void
}

/**
 * "Fill from a link"'s own form: it cannot sit inside the event form (forms do not nest), so the section's field and
 * button name it with their `form` attribute. Without JavaScript it posts the link and the page comes back filled.
 */
export function FillFromLinkForm() {
  return <form id={FORM_ID} method="post" action={ACTION} />
}

function FillReport({ report }: { report: LinkFillReport }) {
  const labels = (fields: LinkFillReport['found']) => fields.map((f) => LINK_FIELD_LABELS[f]).join(', ')
  const host = (() => {
    try {
      return new URL(report.address).host
    } catch {
      return report.address
    }
  })()
  return (
    <div className="mt-3 text-sm text-slate-800" data-testid="fill-report">
      <p>
        Filled from {host} ({report.sources.map((s) => LINK_SOURCE_LABELS[s]).join(', ')}):{' '}
        <strong>{labels(report.found)}</strong>. Check them below and change anything you like.
      </p>
      {report.missing.length ? (
        <p className="mt-1">
          Not found at the link: <strong>{labels(report.missing)}</strong>. Fill these in yourself.
        </p>
      ) : null}
      {report.notes.length ? (
        <ul className="mt-1 list-disc pl-5">
          {report.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

/** The photo's bytes as a file the form's photo input holds, as if the advertiser had chosen it. */
function putPhoto(input: HTMLInputElement | null, photo: NonNullable<ScriptedAnswer['photo']>) {
  if (!input || typeof DataTransfer === 'undefined') return false
  const bytes = Uint8Array.from(atob(photo.base64), (c) => c.charCodeAt(0))
  const transfer = new DataTransfer()
  transfer.items.add(new File([bytes], photo.name, { type: photo.type }))
  input.files = transfer.files
  return true
}

/** The fields a link filled put into the form: the page's own state, and the inputs it does not hold. */
function fillForm(form: HTMLFormElement | null, values: LinkFormValues, set: Setters) {
  if (values.eventTitle !== undefined) set.setTitle(values.eventTitle)
  if (values.eventDescription !== undefined) set.setDescription(values.eventDescription)
  if (values.showAdDates) {
    set.setDates(values.showAdDates)
    set.setEventDate(values.eventDate ?? '')
  }
  if (!form) return
  const input = (name: string) => form.elements.namedItem(name) as HTMLInputElement | null
  if (values.startTime !== undefined) {
    const [start, end, nextDay] = [input('startTime'), input('endTime'), input('endsNextDay')]
    if (start) start.value = values.startTime
    if (end) end.value = values.endTime ?? ''
    if (nextDay) nextDay.checked = Boolean(values.endsNextDay)
  }
  const facts = ['ticketUrl', 'venueAddress', 'venueCity', 'venueState', 'venueZip'] as const
  for (const name of facts) {
    const field = input(name)
    const value = values[name]
    if (!field || value === undefined) continue
    field.value = value
    // The facts are folded away; what was filled is shown.
    const details = field.closest('details')
    if (details) details.open = true
  }
}

/**
 * The Create form's "Fill from a link": the address of an event page or .ics file, read by the server into the
 * form's fields (nothing saved). With JavaScript the answer fills the form in place, the photo into its input.
 */
export function FillFromLink({
  state,
  hydrated,
  formRef,
  photoRef,
  set,
  field,
}: {
  state: FillFromLinkState
  hydrated: boolean
  formRef: RefObject<HTMLFormElement>
  photoRef: RefObject<HTMLInputElement>
  set: Setters
  field: (name: string) => CheckedField
}) {
  const fetcher = useFetcher<ScriptedAnswer>()
  const inputRef = useRef<HTMLInputElement>(null)
  const applied = useRef<ScriptedAnswer | null>(null)
  const [scripted, setScripted] = useState<{ report?: LinkFillReport; error?: string } | null>(null)
  const busy = fetcher.state !== 'idle'

  useEffect(() => {
    const answer = fetcher.data
    if (!answer || applied.current === answer || fetcher.state !== 'idle') return
    applied.current = answer
    if (!answer.filled) {
      setScripted({ error: answer.message ?? FILL_FAILED_MESSAGE })
      inputRef.current?.focus()
      return
    }
    const { values, report } = answer.filled
    fillForm(formRef.current, values, set)
    if (answer.photo && putPhoto(photoRef.current, answer.photo)) set.setPhotoName(answer.photo.name)
    setScripted({ report })
  }, [fetcher.data, fetcher.state, formRef, photoRef, set])

  function fill() {
    setScripted(null)
    fetcher.submit(
      {
        intent: FILL_FROM_LINK_INTENT,
        linkAddress: inputRef.current?.value ?? '',
        photoInline: '1',
      },
      { method: 'post', action: ACTION },
    )
  }

  // Without JavaScript the section's own form posts; with it the fields are filled in place.
  const onButton = hydrated
    ? (e: MouseEvent) => {
        e.preventDefault()
        if (!busy) fill()
      }
    : undefined
  const onKeyDown = hydrated
    ? (e: KeyboardEvent) => {
        if (e.key !== 'Enter') return
        e.preventDefault()
        if (!busy) fill()
      }
    : undefined

  const checked = field('linkAddress')
  const errors = scripted ? (scripted.error ? [scripted.error] : null) : checked.errors
  const report = scripted ? scripted.report : state.report
  const keptPhoto = !scripted ? (state.report?.photoName ?? state.linkPhotoName) : null

  return (
    <section
      aria-labelledby="fill-from-link-heading"
      className="rounded-xl border border-sky-200 bg-sky-50 p-4"
    >
      <h2 id="fill-from-link-heading" className="font-semibold">
        Fill from a link
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Is your event already on a web page or in a calendar? Give the address of its page or its .ics file
        and the form is filled with what it says. Nothing is saved until you continue as usual.
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <FormField
          field={{ ...checked, id: 'linkAddress', errors }}
          label="Event page or .ics address"
          className="min-w-0 flex-1"
        >
          {(control) => (
            <input
              {...control}
              ref={inputRef}
              form={FORM_ID}
              name="linkAddress"
              type="text"
              inputMode="url"
              autoComplete="url"
              spellCheck={false}
              maxLength={LINK_ADDRESS_MAX}
              placeholder="https://"
              defaultValue={state.linkAddress ?? state.report?.address ?? ''}
              onKeyDown={onKeyDown}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            />
          )}
        </FormField>
        <button
          type="submit"
          form={FORM_ID}
          name="intent"
          value={FILL_FROM_LINK_INTENT}
          disabled={busy}
          onClick={onButton}
          className="rounded-md bg-sky-700 px-4 py-2 font-medium text-white hover:bg-sky-800 disabled:opacity-60"
        >
          {busy ? 'Reading the link…' : FILL_BUTTON_LABEL}
        </button>
      </div>
      <div role="status" aria-live="polite">
        {report ? <FillReport report={report} /> : null}
        {keptPhoto ? (
          <p className="mt-1 text-sm text-slate-800" data-testid="link-photo">
            The photo from the link ({keptPhoto}) is used unless you choose another photo below.
          </p>
        ) : null}
      </div>
    </section>
  )
}
