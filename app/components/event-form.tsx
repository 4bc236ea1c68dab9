import { Form, Link, useNavigate, useNavigation } from '@remix-run/react'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { CustomerEventCard } from '#app/components/customer-event-card.tsx'
import { ModalBackdrop } from '#app/components/modal-backdrop.tsx'
import { toast } from '#app/components/toaster.tsx'
import {
  DELAY_TO_CHECKOUT_MS,
  DESCRIPTION_MAX,
  MAX_DISPLAY_DATES,
  PHOTO_MAX_BYTES,
  TITLE_MAX,
  UNSET_DATE,
  VIDEO_MAX_BYTES,
} from '#app/constants.ts'
import type { CalendarMonth } from '#app/models/calendar.ts'
import { customerCardData, type CardBusiness } from '#app/models/customer-card.ts'
import { formatPhone } from '#app/models/format.ts'
import { MAX_DATES_MESSAGE } from '#app/models/event-schema.ts'

export const APPROVE_FAILED_MESSAGE = 'Failed to approve your ad. Please try again.'
export const VIDEO_TOO_LARGE_MESSAGE = 'Video file must be under 50MB'

export interface EventFormValues {
  eventTitle: string
  eventDescription: string
  eventCategory: string[]
  showAdDates: string[]
  eventDate: string
  contactPerson: string
  contactPhone: string
  contactEmail: string
}

export type EventFormBusiness = CardBusiness

/** Editing a saved, unpaid ad: saving rewrites it, and its media stays unless a new file is chosen. */
export interface EditedAd {
  eventID: number
  stillPhotoPath: string
  videoPath: string
}

interface Props {
  business: EventFormBusiness
  editing?: EditedAd
  categories: string[]
  months: CalendarMonth[]
  today: string
  /** The last date that may be chosen (the booking horizon). */
  lastDate: string
  initial: EventFormValues
  errors?: Record<string, string[] | undefined>
  priceTable: Array<{ label: string; price: string }>
}

function FieldError({ id, messages }: { id: string; messages?: string[] }) {
  if (!messages?.length) return null
  return (
    <p id={id} className="mt-1 text-sm text-red-700" role="alert">
      {messages.join(' ')}
    </p>
  )
}

/** Sends the ad with its files to /api/approve-event and reports upload progress. */
function uploadApproval(body: FormData, onProgress: (fraction: number) => void) {
  return new Promise<{ status: number; json: { eventID?: number; message?: string } | null }>(
    (resolve, reject) => {
      const xhr = new XMLHttpRequest()
      xhr.open('POST', '/api/approve-event')
      xhr.responseType = 'json'
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(e.loaded / e.total)
      }
      xhr.onload = () =>
        resolve({ status: xhr.status, json: xhr.response as { eventID?: number; message?: string } | null })
      xhr.onerror = () => reject(new Error('Network error'))
      xhr.send(body)
    },
  )
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
  const [cost, setCost] = useState('0.00')
  const [previewOpen, setPreviewOpen] = useState(false)
  const [contact, setContact] = useState({
    contactPerson: initial.contactPerson,
    contactPhone: initial.contactPhone,
    contactEmail: initial.contactEmail,
  })
  const [progress, setProgress] = useState<number | null>(null)

  useEffect(() => setHydrated(true), [])

  useEffect(() => {
    if (dates.length === 0) {
      setCost('0.00')
      return
    }
    const controller = new AbortController()
    fetch(`/api/charges/${dates.length}`, { signal: controller.signal, credentials: 'include' })
      .then((res) =>
        res.ok
          ? (res.json() as Promise<{ chargeAmount: number }>)
          : Promise.reject(new Error(String(res.status))),
      )
      .then((body) => setCost(Number(body.chargeAmount).toFixed(2)))
      .catch((error: unknown) => {
        if ((error as Error).name !== 'AbortError') setCost('0.00')
      })
    return () => controller.abort()
  }, [dates.length])

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

  function onVideoChange() {
    const file = videoRef.current?.files?.[0]
    if (file && file.size > VIDEO_MAX_BYTES) {
      window.alert(VIDEO_TOO_LARGE_MESSAGE)
      videoRef.current!.value = ''
      setVideoName('')
      return
    }
    setVideoName(file?.name ?? '')
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

  function fieldValue(name: 'contactPerson' | 'contactPhone' | 'contactEmail') {
    return (formRef.current?.elements.namedItem(name) as HTMLInputElement | null)?.value ?? ''
  }

  async function onApprove() {
    const form = formRef.current
    if (!form) return
    const data = new FormData()
    const eventData = {
      eventTitle: title.trim(),
      eventDescription: description.trim(),
      eventCategory: chosenCategories,
      eventDate: eventDate || UNSET_DATE,
      contactPerson: fieldValue('contactPerson'),
      contactPhone: fieldValue('contactPhone'),
      contactEmail: fieldValue('contactEmail'),
      businessName: business.businessName,
      showAdOnDate: dates.map((d) => `${d},`).join(''),
    }
    data.set('eventData', JSON.stringify(eventData))
    data.set('selectedDates', JSON.stringify(dates))
    data.set('totalAmount', cost)
    if (editing) data.set('eventID', String(editing.eventID))
    const photo = photoRef.current?.files?.[0]
    const video = videoRef.current?.files?.[0]
    if (photo) data.set('image', photo)
    if (video) data.set('video', video)
    setProgress(0)
    try {
      const { status, json } = await uploadApproval(data, setProgress)
      if (status >= 200 && status < 300 && json?.eventID) {
        toast({ title: 'Success!', description: 'Your ad has been saved. Taking you to payment...' })
        setTimeout(() => navigate('/checkout'), DELAY_TO_CHECKOUT_MS)
        return
      }
      toast({
        title: 'Error',
        description: status >= 400 && status < 500 && json?.message ? json.message : APPROVE_FAILED_MESSAGE,
        variant: 'destructive',
      })
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

        <div>
          <label htmlFor="eventTitle" className="block font-medium">
            Title
          </label>
          <input
            id="eventTitle"
            name="eventTitle"
            required
            maxLength={TITLE_MAX}
            value={title}
            onChange={(e) => setTitle(e.target.value.slice(0, TITLE_MAX))}
            aria-describedby="eventTitle-count eventTitle-error"
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
          />
          <p id="eventTitle-count" className="mt-1 text-right text-xs text-slate-500">
            {title.length}/{TITLE_MAX}
          </p>
          <FieldError id="eventTitle-error" messages={errors.eventTitle} />
        </div>

        <div>
          <label htmlFor="eventDescription" className="block font-medium">
            Description
          </label>
          <textarea
            id="eventDescription"
            name="eventDescription"
            required
            rows={5}
            maxLength={DESCRIPTION_MAX}
            value={description}
            onChange={(e) => setDescription(e.target.value.slice(0, DESCRIPTION_MAX))}
            aria-describedby="eventDescription-count eventDescription-error"
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
          />
          <p id="eventDescription-count" className="mt-1 text-right text-xs text-slate-500">
            {description.length}/{DESCRIPTION_MAX}
          </p>
          <FieldError id="eventDescription-error" messages={errors.eventDescription} />
        </div>

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

        <fieldset>
          <legend className="font-medium">Display dates</legend>
          <p className="text-sm text-slate-600">
            Pick the days your ad runs (up to {MAX_DISPLAY_DATES}). Choose a date again to remove it.{' '}
            <span data-testid="dates-count">{dates.length} selected</span>
          </p>
          <div className="mt-3 grid gap-6 md:grid-cols-3">
            {months.map((month) => (
              <div key={month.key}>
                <p className="mb-2 text-sm font-semibold">{month.label}</p>
                <div className="grid grid-cols-7 gap-1 text-center text-xs">
                  {['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'].map((d) => (
                    <span key={d} aria-hidden className="text-slate-500">
                      {d}
                    </span>
                  ))}
                  {Array.from({ length: month.leadingBlanks }, (_, i) => (
                    <span key={`blank-${i}`} />
                  ))}
                  {month.days.map((day) => (
                    <label
                      key={day.date}
                      className={`relative grid h-9 place-items-center rounded-md border text-sm ${
                        day.unavailable
                          ? 'cursor-not-allowed border-transparent text-slate-300'
                          : 'cursor-pointer border-slate-200 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-600 has-[:checked]:text-white'
                      }`}
                    >
                      <input
                        type="checkbox"
                        name="showAdDates"
                        value={day.date}
                        disabled={day.unavailable}
                        checked={dates.includes(day.date)}
                        onChange={(e) => toggleDate(day.date, e.target.checked)}
                        className="sr-only"
                        aria-label={day.date}
                      />
                      {day.day}
                    </label>
                  ))}
                </div>
              </div>
            ))}
          </div>
          <FieldError id="showAdDates-error" messages={errors.showAdDates} />
        </fieldset>

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
            onChange={(e) => setEventDate(e.target.value)}
            className="mt-1 rounded-md border border-slate-300 px-3 py-2"
          />
          <FieldError id="eventDate-error" messages={errors.eventDate} />
        </div>

        <div className="grid gap-6 md:grid-cols-2">
          <div>
            <label htmlFor="image" className="block font-medium">
              Photo
            </label>
            <input
              ref={photoRef}
              id="image"
              type="file"
              name="image"
              accept="image/jpeg,image/png,image/webp,image/gif"
              onChange={() => setPhotoName(photoRef.current?.files?.[0]?.name ?? '')}
              className="mt-1 block w-full text-sm"
            />
            <p className="mt-1 text-xs text-slate-500">
              Image files up to {PHOTO_MAX_BYTES / 1024 / 1024}MB.
            </p>
            {editing?.stillPhotoPath ? <KeptMediaNote kind="photo" /> : null}
            <FieldError id="image-error" messages={errors.image} />
          </div>
          <div>
            <label htmlFor="video" className="block font-medium">
              Video <span className="font-normal text-slate-500">(optional)</span>
            </label>
            <input
              ref={videoRef}
              id="video"
              type="file"
              name="video"
              accept="video/mp4,video/webm,video/ogg"
              onChange={onVideoChange}
              className="mt-1 block w-full text-sm"
            />
            <p className="mt-1 text-xs text-slate-500">
              MP4, WebM or Ogg, under {VIDEO_MAX_BYTES / 1024 / 1024}MB.
            </p>
            {editing?.videoPath ? <KeptMediaNote kind="video" /> : null}
            <FieldError id="video-error" messages={errors.video} />
          </div>
        </div>

        <details className="rounded-md border border-slate-200 p-3 text-sm">
          <summary className="cursor-pointer font-medium">Contact for this event (optional)</summary>
          <div className="mt-3 grid gap-3 md:grid-cols-3">
            {(
              [
                ['contactPerson', 'Contact person', 'text', initial.contactPerson],
                ['contactPhone', 'Contact phone', 'tel', initial.contactPhone],
                ['contactEmail', 'Contact email', 'email', initial.contactEmail],
              ] as const
            ).map(([name, label, type, value]) => (
              <div key={name}>
                <label htmlFor={name} className="block">
                  {label}
                </label>
                <input
                  id={name}
                  name={name}
                  type={type}
                  defaultValue={value}
                  className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
                />
                <FieldError id={`${name}-error`} messages={errors[name]} />
              </div>
            ))}
          </div>
        </details>

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
        <ModalBackdrop zIndex="z-40">
          <div
            role="dialog"
            aria-modal="true"
            aria-labelledby="preview-heading"
            data-nested-dialog
            className="mx-auto max-w-3xl rounded-2xl bg-white p-6 shadow-xl"
          >
            <h2 id="preview-heading" className="text-2xl font-bold">
              Preview Your Ad - Customer View
            </h2>
            <p className="mt-2 text-lg font-semibold">Total Cost: ${cost}</p>
            {progress !== null ? (
              <div className="mt-3">
                <label htmlFor="upload-progress" className="text-sm">
                  Uploading...
                </label>
                <progress id="upload-progress" max={1} value={progress} className="w-full" />
              </div>
            ) : null}
            <CustomerEventCard
              className="mt-4"
              event={preview}
              mode="preview"
              cost={cost}
              media={{ photoFileName: photoName || undefined, videoFileName: videoName || undefined }}
              approve={{ onClick: onApprove, disabled: progress !== null }}
              reject={{ onClick: () => setPreviewOpen(false) }}
            />
          </div>
        </ModalBackdrop>
      ) : null}
    </>
  )
}

function KeptMediaNote({ kind }: { kind: 'photo' | 'video' }) {
  return (
    <p className="mt-1 text-xs text-slate-700">Your current {kind} stays unless you choose a new file.</p>
  )
}
