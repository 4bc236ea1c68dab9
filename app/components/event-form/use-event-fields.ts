import { useMemo, useState } from 'react'
import { useCheckedForm, useFormAsLeftBeforeScripts } from '#app/components/checked-form.tsx'
import { toast } from '#app/components/toaster.tsx'
import { MAX_DISPLAY_DATES, UNSET_DATE } from '#app/constants.ts'
import { eventFormProblems, MAX_DATES_MESSAGE } from '#app/models/ads/event-rules.ts'
import { factFieldsIn } from '#app/components/practical-facts-fields.tsx'
import { CONTACT_FIELD_NAMES } from './contact-fields.tsx'
import { timesIn } from './time-fields.tsx'
import type { EventFormValues, FieldErrors } from './values.ts'

const FORM_ID = 'event-form'

/**
 * The event form's fields: the values the page shows as they change (counts, cost, the preview card), and their
 * problems. The server's answer (`errors`, a no-JavaScript post; or `showServerErrors`, the approval's answer) is
 * shown first; with JavaScript the browser checks the same rules (event-rules.ts) on submit and as fields are fixed.
 */
export function useEventFields({
  initial,
  errors,
  today,
  paid,
}: {
  initial: EventFormValues
  errors?: FieldErrors
  today: string
  /** An edit after payment: its dates are fixed and left to the server. */
  paid: boolean
}) {
  const [title, setTitle] = useState(initial.eventTitle)
  const [description, setDescription] = useState(initial.eventDescription)
  const [categories, setCategories] = useState<string[]>(initial.eventCategory)
  const [dates, setDates] = useState<string[]>(initial.showAdDates)
  const [eventDate, setEventDate] = useState(initial.eventDate === UNSET_DATE ? '' : initial.eventDate)
  const [photoName, setPhotoName] = useState('')
  const [videoName, setVideoName] = useState('')
  const [approvalErrors, setApprovalErrors] = useState<FieldErrors | null>(null)

  useFormAsLeftBeforeScripts(
    () => document.getElementById(FORM_ID) as HTMLFormElement | null,
    (sent, lists, form) => {
      setTitle(sent.eventTitle ?? '')
      setDescription(sent.eventDescription ?? '')
      setCategories(lists.eventCategory ?? [])
      setDates([...new Set(lists.showAdDates ?? [])].sort())
      setEventDate(sent.eventDate ?? '')
      const fileName = (name: string) =>
        (form.elements.namedItem(name) as HTMLInputElement | null)?.files?.[0]?.name
      setPhotoName(fileName('image') ?? '')
      setVideoName(fileName('video') ?? '')
    },
  )

  const reply = useMemo(() => ({ error: approvalErrors ?? errors ?? null }), [approvalErrors, errors])
  const checked = useCheckedForm({
    id: FORM_ID,
    reply,
    check: (values, lists) => eventFormProblems(values, lists, { today, paid }),
    // Without JavaScript the browser's own checks apply before the post.
    browserChecksWithoutJs: true,
    onInvalid(problems) {
      if (problems.showAdDates)
        toast({ title: 'Choose your dates', description: problems.showAdDates, variant: 'destructive' })
    },
  })

  function toggleDate(date: string, on: boolean) {
    if (on && !dates.includes(date) && dates.length >= MAX_DISPLAY_DATES) {
      window.alert(MAX_DATES_MESSAGE)
      return
    }
    setDates((current) => (on ? [...current, date].sort() : current.filter((d) => d !== date)))
  }

  function toggleCategory(name: string, on: boolean) {
    setCategories((current) => (on ? [...current, name] : current.filter((c) => c !== name)))
  }

  function clear(form: HTMLFormElement | null) {
    form?.reset()
    for (const set of [setTitle, setDescription, setEventDate, setPhotoName, setVideoName]) set('')
    setCategories([])
    setDates([])
  }

  /** Everything the advertiser entered; the contact fields keep their own values and are read from the form. */
  function valuesIn(form: HTMLFormElement): EventFormValues {
    const contact = (name: (typeof CONTACT_FIELD_NAMES)[number]) =>
      (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? ''
    return {
      eventTitle: title,
      eventDescription: description,
      eventCategory: categories,
      showAdDates: dates,
      eventDate,
      contactPerson: contact('contactPerson'),
      contactPhone: contact('contactPhone'),
      contactEmail: contact('contactEmail'),
      ...timesIn(form),
      factFields: factFieldsIn(form),
    }
  }

  const anythingEntered =
    [title, description, eventDate, photoName, videoName].some((v) => v !== '') ||
    categories.length > 0 ||
    dates.length > 0

  return {
    values: { title, description, categories, dates, eventDate, photoName, videoName },
    set: {
      setTitle,
      setDescription,
      setEventDate,
      setPhotoName,
      setVideoName,
      toggleDate,
      toggleCategory,
      setDates,
    },
    formProps: checked.formProps,
    field: checked.field,
    /** A refusal that names no field (the post could not be saved as a whole). */
    formErrors: checked.formErrors,
    formErrorId: checked.formErrorId,
    readyToPreview: title.trim() !== '' && description.trim() !== '' && categories.length > 0,
    anythingEntered,
    clear,
    valuesIn,
    showServerErrors: setApprovalErrors,
  }
}
