import { Form, useNavigation } from '@remix-run/react'
import { useRef, useState, type FormEvent, type MouseEvent } from 'react'
import { useHydrated } from '#app/components/account-ui.tsx'
import { DESCRIPTION_MAX, TITLE_MAX } from '#app/constants.ts'
import type { CalendarMonth } from '#app/models/calendar/calendar.ts'
import { customerCardData, type CardBusiness } from '#app/models/ads/customer-card.ts'
import {
  freeAllowanceOf,
  freeAllowanceText,
  FREE_PREVIEW_TEXT,
  SUBMIT_FREE_LABEL,
  type FreeAllowance,
} from '#app/models/payments/free-listing.ts'
import { HIGHEST_PRICE_NOTE } from '#app/models/payments/price-list.ts'
import { formatPhone } from '#app/utils/format.ts'
import { CategoryField } from './event-form/category-field.tsx'
import { ContactFields } from './event-form/contact-fields.tsx'
import { CountedText } from './event-form/counted-text.tsx'
import { DateFields } from './event-form/date-fields.tsx'
import { FillFromLink, FillFromLinkForm, type FillFromLinkState } from './event-form/fill-from-link.tsx'
import { FormActions } from './event-form/form-actions.tsx'
import { MediaInputs } from './event-form/media-inputs.tsx'
import { TimeFields } from './event-form/time-fields.tsx'
import { PreviewDialog } from './event-form/preview-dialog.tsx'
import { initialFactFields, PracticalFactsFields } from './practical-facts-fields.tsx'
import { useAdCost, type FormPrices } from './event-form/use-ad-cost.ts'
import { useApproval } from './event-form/use-approval.ts'
import { useEventFields } from './event-form/use-event-fields.ts'
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
  /** The server's problems per field ('' = the form's own), when the form was posted without JavaScript. */
  errors?: FieldErrors
  priceTable: Array<{ label: string; price: string }>
  /** The prices the total is computed by: the default tiers, and those of the categories priced apart. */
  prices: FormPrices
  /** The categories listed free, and what a free listing in each includes. */
  freeListings?: Record<string, FreeAllowance>
  /** A new ad's "Fill from a link" (not offered on an edit). */
  fillFromLink?: FillFromLinkState
}

/**
 * The event ad's form. Without JavaScript it posts to its page, which stages a draft and shows the preview page;
 * with it, the fields are checked here, the preview opens as a dialog and approving uploads the ad.
 */
export function EventForm({
  business,
  editing,
  categories,
  months,
  today,
  lastDate,
  initial,
  errors,
  priceTable,
  prices,
  freeListings = {},
  fillFromLink,
}: Props) {
  const navigation = useNavigation()
  const hydrated = useHydrated()
  const formRef = useRef<HTMLFormElement>(null)
  const photoRef = useRef<HTMLInputElement>(null)
  const videoRef = useRef<HTMLInputElement>(null)
  const [preview, setPreview] = useState<EventFormValues | null>(null)
  const paid = Boolean(editing?.paid)
  const fields = useEventFields({ initial, errors, today, paid })
  const { values, set, field } = fields
  const { cost: paidCost, pricedApart } = useAdCost(values.dates.length, values.categories, prices)
  // A paid ad keeps its price: only a new or unpaid ad is a free listing.
  const allowance = paid ? null : freeAllowanceOf(values.categories, freeListings)
  const freeText = allowance ? freeAllowanceText(allowance) : null
  const cost = allowance ? '0.00' : paidCost
  const approval = useApproval({
    businessName: business.businessName,
    eventID: editing?.eventID,
    cost,
    onFieldErrors(problems) {
      setPreview(null)
      fields.showServerErrors(problems)
    },
  })

  function onCancel(e: MouseEvent) {
    e.preventDefault()
    if (
      fields.anythingEntered &&
      !window.confirm('Discard this event? Everything you entered will be cleared.')
    )
      return
    fields.clear(formRef.current)
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    fields.formProps.onSubmit(e)
    if (e.defaultPrevented) return
    // With JavaScript the preview opens here; without, the form posts and the server shows the preview page.
    e.preventDefault()
    setPreview(fields.valuesIn(e.currentTarget))
  }

  return (
    <>
      {fillFromLink ? <FillFromLinkForm /> : null}
      <Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        className="grid gap-8"
        aria-labelledby="create-event-heading"
        {...fields.formProps}
        aria-describedby={fields.formErrors.length ? fields.formErrorId : undefined}
        onSubmit={hydrated ? onSubmit : undefined}
      >
        {fields.formErrors.length ? (
          <p
            id={fields.formErrorId}
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
          >
            {fields.formErrors.join(' ')}
          </p>
        ) : null}
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

        {fillFromLink ? (
          <FillFromLink
            state={fillFromLink}
            hydrated={hydrated}
            formRef={formRef}
            photoRef={photoRef}
            set={set}
            field={field}
          />
        ) : null}
        <CountedText
          name="eventTitle"
          label="Title"
          max={TITLE_MAX}
          value={values.title}
          onChange={set.setTitle}
          field={field('eventTitle')}
        />
        <CountedText
          name="eventDescription"
          label="Description"
          max={DESCRIPTION_MAX}
          rows={5}
          value={values.description}
          onChange={set.setDescription}
          field={field('eventDescription')}
        />
        <CategoryField
          categories={categories}
          chosen={values.categories}
          onToggle={set.toggleCategory}
          field={field('eventCategory')}
          free={paid ? {} : freeListings}
        />
        <DateFields
          paid={paid}
          months={months}
          today={today}
          lastDate={lastDate}
          dates={values.dates}
          eventDate={values.eventDate}
          onToggleDate={set.toggleDate}
          onFillDates={set.setDates}
          repeat={initial.repeat}
          onEventDate={set.setEventDate}
          field={field}
          freeNote={freeText?.dates}
        />
        <TimeFields initial={initial} field={field} />
        <MediaInputs
          photoRef={photoRef}
          videoRef={videoRef}
          onPhotoName={set.setPhotoName}
          onVideoName={set.setVideoName}
          keepsPhoto={Boolean(editing?.stillPhotoPath)}
          keepsVideo={Boolean(editing?.videoPath)}
          field={field}
          freeNotes={freeText}
        />
        <ContactFields initial={initial} field={field} />
        <PracticalFactsFields initial={initialFactFields(initial)} field={field} />
        <FormActions
          hydrated={hydrated}
          cost={cost}
          priceTable={priceTable}
          categoryPrices={prices.byCategory}
          pricedApart={!allowance && !paid && pricedApart}
          readyToPreview={fields.readyToPreview}
          submitting={navigation.state === 'submitting'}
          onCancel={onCancel}
        />
      </Form>

      {preview ? (
        <PreviewDialog
          card={customerCardData(business, {
            ...preview,
            stillPhotoPath: editing?.stillPhotoPath,
            videoPath: editing?.videoPath,
          })}
          cost={cost}
          progress={approval.progress}
          photoFileName={values.photoName}
          videoFileName={values.videoName}
          onApprove={() =>
            void approval.approve(preview, {
              photo: photoRef.current?.files?.[0],
              video: videoRef.current?.files?.[0],
            })
          }
          onReject={() => setPreview(null)}
          approveLabel={paid ? RESUBMIT_LABEL : allowance ? SUBMIT_FREE_LABEL : undefined}
          freeNote={allowance ? FREE_PREVIEW_TEXT : null}
          priceNote={!allowance && !paid && pricedApart ? HIGHEST_PRICE_NOTE : null}
        />
      ) : null}
    </>
  )
}
