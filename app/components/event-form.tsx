import { Form, Link, useNavigate, useNavigation } from '@remix-run/react'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { toast } from '#app/components/toaster.tsx'
import {
  DELAY_TO_CHECKOUT_MS,
  DESCRIPTION_MAX,
  MAX_DISPLAY_DATES,
  TITLE_MAX,
  UNSET_DATE,
} from '#app/constants.ts'
import type { CalendarMonth } from '#app/models/calendar.ts'
import { customerCardData, type CardBusiness } from '#app/models/customer-card.ts'
import { formatDatesLine, formatPhone, formatShortDate } from '#app/models/format.ts'
import { DATES_LOCKED_MESSAGE, MAX_DATES_MESSAGE } from '#app/models/event-schema.ts'
import {
  APPROVE_FAILED_MESSAGE,
  approvalBody,
  approvalFailureMessage,
  uploadApproval,
} from './event-form/approval-upload.ts'
import { ContactFields, type ContactField } from './event-form/contact-fields.tsx'
import { CountedText } from './event-form/counted-text.tsx'
import { DisplayDates } from './event-form/display-dates.tsx'
import { FieldError } from './event-form/field-error.tsx'
import { MediaInputs } from './event-form/media-inputs.tsx'
import { PreviewDialog } from './event-form/preview-dialog.tsx'
import { useAdCost } from './event-form/use-ad-cost.ts'
import type { EventFormValues, FieldErrors } from './event-form/values.ts'

export type { EventFormValues } from './event-form/values.ts'

export type EventFormBusiness = CardBusiness

/**
 * Editing a saved ad: saving rewrites it, and its media stays unless a new file is chosen. A `paid` one keeps the
 * dates it was paid for and is sent for review again instead of to payment.
 */
export interface EditedAd {
  eventID: number
  stillPhotoPath: string
  videoPath: string
  paid?: boolean
}

export const RESUBMIT_LABEL = 'Send for review'

interface Props {
  business: EventFormBusiness
  editing?: EditedAd
  categories: string[]
  months: CalendarMonth[]
  today: string
  /** The last date that may be chosen (the booking horizon). */
  lastDate: string
  initial: EventFormValues
  errors?: FieldErrors
  priceTable: Array<{ label: string; price: string }>
}

export function EventForm({
  business,
  editing,
  categories,
  months,
  today,
  lastDate,
  initial,
  errors = {},
  priceTable,
}: Props) {
  const navigation = useNavigation()
  const navigate = useNavigate()
  const formRef = useRef<HTMLFormElement>(null)
  const photoRef = useRef<HTMLInputElement>(null)
  const videoRef = useRef<HTMLInputElement>(null)
  const [hydrated, setHydrated] = useState(false)
  const [title, setTitle] = useState(initial.eventTitle)
  const [description, setDescription] = useState(initial.eventDescription)
  const [chosenCategories, setChosenCategories] = useState<string[]>(initial.eventCategory)
  const [dates, setDates] = useState<string[]>(initial.showAdDates)
  const [eventDate, setEventDate] = useState(initial.eventDate === UNSET_DATE ? '' : initial.eventDate)
  const [photoName, setPhotoName] = useState('')
  const [videoName, setVideoName] = useState('')
  const [previewOpen, setPreviewOpen] = useState(false)
  const [contact, setContact] = useState({
    contactPerson: initial.contactPerson,
    contactPhone: initial.contactPhone,
    contactEmail: initial.contactEmail,
  })
  const [progress, setProgress] = useState<number | null>(null)

  const cost = useAdCost(dates.length)

  useEffect(() => setHydrated(true), [])

  const readyToPreview = title.trim() !== '' && description.trim() !== '' && chosenCategories.length > 0
  const anythingEntered =
    title !== '' ||
    description !== '' ||
    chosenCategories.length > 0 ||
    dates.length > 0 ||
    eventDate !== '' ||
    photoName !== '' ||
    videoName !== ''

  function toggleDate(date: string, checked: boolean) {
    if (checked && !dates.includes(date) && dates.length >= MAX_DISPLAY_DATES) {
      window.alert(MAX_DATES_MESSAGE)
      return
    }
    setDates((current) => (checked ? [...current, date].sort() : current.filter((d) => d !== date)))
  }

  function clearAll() {
    formRef.current?.reset()
    setTitle('')
    setDescription('')
    setChosenCategories([])
    setDates([])
    setEventDate('')
    setPhotoName('')
    setVideoName('')
  }

  function onCancel(e: React.MouseEvent) {
    e.preventDefault()
    if (anythingEntered && !window.confirm('Discard this event? Everything you entered will be cleared.'))
      return
    clearAll()
  }

  function onPreview(e: FormEvent) {
    // With JavaScript the preview opens here; without, the form posts and the server shows the preview page.
    e.preventDefault()
    if (!formRef.current?.reportValidity()) return
    if (dates.length === 0) {
      toast({
        title: 'Choose your dates',
        description: 'Please choose at least one display date',
        variant: 'destructive',
      })
      return
    }
    setContact({
      contactPerson: fieldValue('contactPerson'),
      contactPhone: fieldValue('contactPhone'),
      contactEmail: fieldValue('contactEmail'),
    })
    setPreviewOpen(true)
  }

  function fieldValue(name: ContactField) {
    return (formRef.current?.elements.namedItem(name) as HTMLInputElement | null)?.value ?? ''
  }

  async function onApprove() {
    if (!formRef.current) return
    const body = approvalBody({
      values: {
        eventTitle: title,
        eventDescription: description,
        eventCategory: chosenCategories,
        showAdDates: dates,
        eventDate,
        contactPerson: fieldValue('contactPerson'),
        contactPhone: fieldValue('contactPhone'),
        contactEmail: fieldValue('contactEmail'),
      },
      businessName: business.businessName,
      cost,
      eventID: editing?.eventID,
      photo: photoRef.current?.files?.[0],
      video: videoRef.current?.files?.[0],
    })
    setProgress(0)
    try {
      const answer = await uploadApproval(body, setProgress)
      if (answer.status >= 200 && answer.status < 300 && answer.json?.eventID && answer.json.resubmitted) {
        toast({ title: 'Sent for review', description: answer.json.message })
        navigate(`/event/${answer.json.eventID}`)
        return
      }
      if (answer.status >= 200 && answer.status < 300 && answer.json?.eventID) {
        toast({ title: 'Success!', description: 'Your ad has been saved. Taking you to payment...' })
        setTimeout(() => navigate('/checkout'), DELAY_TO_CHECKOUT_MS)
        return
      }
      toast({ title: 'Error', description: approvalFailureMessage(answer), variant: 'destructive' })
    } catch {
      toast({ title: 'Error', description: APPROVE_FAILED_MESSAGE, variant: 'destructive' })
    } finally {
      setProgress(null)
    }
  }

  const preview = customerCardData(business, {
    eventTitle: title,
    eventDescription: description,
    ...contact,
    stillPhotoPath: editing?.stillPhotoPath,
    videoPath: editing?.videoPath,
  })
  const submitting = navigation.state === 'submitting'

  return (
    <>
      <Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        className="grid gap-8"
        onSubmit={hydrated ? onPreview : undefined}
        aria-labelledby="create-event-heading"
      >
        <section
          aria-labelledby="business-info"
          className="rounded-xl border border-slate-200 bg-slate-50 p-4"
        >
          <h2 id="business-info" className="font-semibold">
            Business info
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            {business.businessName} · {business.businessAddress}, {business.businessCity},{' '}
            {business.businessState} {business.businessZip} · {formatPhone(business.businessPhone)} ·{' '}
            {business.businessEmail}
          </p>
        </section>

        <CountedText
          name="eventTitle"
          label="Title"
          max={TITLE_MAX}
          value={title}
          onChange={setTitle}
          errors={errors.eventTitle}
        />
        <CountedText
          name="eventDescription"
          label="Description"
          max={DESCRIPTION_MAX}
          rows={5}
          value={description}
          onChange={setDescription}
          errors={errors.eventDescription}
        />

        <fieldset>
          <legend className="font-medium">Category</legend>
          <p className="text-sm text-slate-600">Choose one or more.</p>
          <div className="mt-2 flex flex-wrap gap-2">
            {categories.map((name) => (
              <label
                key={name}
                className="flex items-center gap-2 rounded-full border border-slate-300 px-3 py-1 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="checkbox"
                  name="eventCategory"
                  value={name}
                  checked={chosenCategories.includes(name)}
                  onChange={(e) =>
                    setChosenCategories((current) =>
                      e.target.checked ? [...current, name] : current.filter((c) => c !== name),
                    )
                  }
                />
                {name}
              </label>
            ))}
          </div>
          <FieldError id="eventCategory-error" messages={errors.eventCategory} />
        </fieldset>

        {editing?.paid ? (
          <PaidDatesField dates={dates} eventDate={eventDate} errors={errors} />
        ) : (
          <>
            <DisplayDates months={months} dates={dates} onToggle={toggleDate} errors={errors.showAdDates} />
            <EventDateField
              eventDate={eventDate}
              onChange={setEventDate}
              today={today}
              lastDate={lastDate}
              errors={errors}
            />
          </>
        )}

        <MediaInputs
          photoRef={photoRef}
          videoRef={videoRef}
          onPhotoName={setPhotoName}
          onVideoName={setVideoName}
          keepsPhoto={Boolean(editing?.stillPhotoPath)}
          keepsVideo={Boolean(editing?.videoPath)}
          errors={errors}
        />

        <ContactFields initial={initial} errors={errors} />

        <div className="flex flex-wrap items-end justify-between gap-4 border-t border-slate-200 pt-6">
          <div>
            <label htmlFor="totalCost" className="block text-sm font-medium">
              Total cost
            </label>
            {hydrated ? (
              <input
                id="totalCost"
                readOnly
                value={`$${cost}`}
                className="mt-1 w-32 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-semibold"
              />
            ) : (
              <>
                <input
                  id="totalCost"
                  readOnly
                  value="Shown on the preview"
                  className="mt-1 w-48 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm"
                />
                <ul className="mt-2 text-xs text-slate-600">
                  {priceTable.map((p) => (
                    <li key={p.label}>
                      {p.label}: ${p.price}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </div>
          <div className="flex gap-3">
            {hydrated ? (
              <button
                type="button"
                onClick={onCancel}
                className="rounded-md border border-slate-300 px-4 py-2 font-medium"
              >
                Cancel
              </button>
            ) : (
              <Link to="/dashboard" className="rounded-md border border-slate-300 px-4 py-2 font-medium">
                Cancel
              </Link>
            )}
            {!hydrated || readyToPreview ? (
              <button
                type="submit"
                name="intent"
                value="preview"
                disabled={submitting}
                className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
              >
                {submitting ? 'Preparing preview...' : 'Ready to Preview'}
              </button>
            ) : null}
          </div>
        </div>
      </Form>

      {previewOpen ? (
        <PreviewDialog
          card={preview}
          cost={cost}
          progress={progress}
          photoFileName={photoName}
          videoFileName={videoName}
          onApprove={onApprove}
          onReject={() => setPreviewOpen(false)}
          approveLabel={editing?.paid ? RESUBMIT_LABEL : undefined}
        />
      ) : null}
    </>
  )
}

function EventDateField({
  eventDate,
  onChange,
  today,
  lastDate,
  errors,
}: {
  eventDate: string
  onChange: (value: string) => void
  today: string
  lastDate: string
  errors: FieldErrors
}) {
  return (
    <div>
      <label htmlFor="eventDate" className="block font-medium">
        Event date <span className="font-normal text-slate-500">(optional, a single day)</span>
      </label>
      <input
        id="eventDate"
        type="date"
        name="eventDate"
        min={today}
        max={lastDate}
        value={eventDate}
        onChange={(e) => onChange(e.target.value)}
        className="mt-1 rounded-md border border-slate-300 px-3 py-2"
      />
      <FieldError id="eventDate-error" messages={errors.eventDate} />
    </div>
  )
}

/** A paid ad's dates: shown, and sent back unchanged (the server refuses any change). */
function PaidDatesField({
  dates,
  eventDate,
  errors,
}: {
  dates: string[]
  eventDate: string
  errors: FieldErrors
}) {
  return (
    <section aria-labelledby="paid-dates-heading" className="rounded-xl border border-slate-200 p-4">
      <h2 id="paid-dates-heading" className="font-medium">
        Display dates (paid for)
      </h2>
      <p className="mt-1 text-sm text-slate-700" data-testid="paid-dates">
        {formatDatesLine(dates, eventDate)}
        {eventDate ? ` · Event date ${formatShortDate(eventDate, { withYear: true })}` : ''}
      </p>
      <p className="mt-1 text-xs text-slate-600">{DATES_LOCKED_MESSAGE}</p>
      {dates.map((date) => (
        <input key={date} type="hidden" name="showAdDates" value={date} />
      ))}
      <input type="hidden" name="eventDate" value={eventDate} />
      <FieldError id="showAdDates-error" messages={errors.showAdDates ?? errors.eventDate} />
    </section>
  )
}
