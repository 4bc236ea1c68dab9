import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data, redirect } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { RouteDialog } from '#app/components/route-dialog.tsx'
import { EventForm, type EventFormValues } from '#app/components/event-form.tsx'
import { UNSET_DATE } from '#app/constants.ts'
import { requireBusiness } from '#app/services/auth.server.ts'
import { parseEventInput } from '#app/services/event-approval.server.ts'
import { getEventDraft, setEventDraft } from '#app/services/event-draft.server.ts'
import { eventFormOptions } from '#app/services/event-form-page.server.ts'
import { assertCategoriesExist, priceFor, SubmissionError } from '#app/services/event-submission.server.ts'
import { discardStaged, parseMultipartUpload, UploadError } from '#app/services/media.server.ts'
import { getSession, sessionStorage } from '#app/services/session.server.ts'

export const meta: MetaFunction = () => [{ title: 'Create Event Listing · EventShout' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  const session = await getSession(request)
  const draft = getEventDraft(session)
  const initial: EventFormValues = draft
    ? { ...draft.input }
    : {
        eventTitle: '',
        eventDescription: '',
        eventCategory: [],
        showAdDates: [],
        eventDate: UNSET_DATE,
        contactPerson: business.businessContact,
        contactPhone: business.businessPhone,
        contactEmail: business.businessEmail,
      }
  return { business, initial, ...(await eventFormOptions()) }
}

/** Without JavaScript: the form posts here, the files wait on the server, and the preview is its own page. */
export async function action({ request }: ActionFunctionArgs) {
  await requireBusiness(request)
  const session = await getSession(request)
  let upload
  try {
    // Up to 21 dates and every category arrive as repeated checkbox fields.
    upload = await parseMultipartUpload(request, { files: { image: 'photo', video: 'video' }, maxFields: 128 })
  } catch (error) {
    if (error instanceof UploadError) {
      const field = error.kind === 'video' ? 'video' : 'image'
      return data({ errors: { [field]: [error.message] } }, { status: error.status })
    }
    throw error
  }
  const { fields, fieldLists, files } = upload
  try {
    const input = parseEventInput({
      ...fields,
      eventCategory: fieldLists.eventCategory ?? [],
      showAdDates: fieldLists.showAdDates ?? [],
    })
    await assertCategoriesExist(input.eventCategory)
    const totalCents = priceFor(input)
    const previous = getEventDraft(session)
    // A new file replaces the one chosen before; otherwise the earlier upload is kept.
    const kept = { photo: files.image ?? previous?.files.photo, video: files.video ?? previous?.files.video }
    const replaced = [files.image && previous?.files.photo, files.video && previous?.files.video].filter(Boolean)
    await discardStaged(replaced as never)
    setEventDraft(session, { input, totalCents, files: kept })
    return redirect('/dashboard/events/preview', {
      headers: { 'Set-Cookie': await sessionStorage.commitSession(session) },
    })
  } catch (error) {
    await discardStaged(Object.values(files))
    if (error instanceof SubmissionError) return data({ errors: error.fieldErrors }, { status: error.status })
    throw error
  }
}

export default function NewEventPage() {
  const { business, initial, categories, months, today, priceTable } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <RouteDialog labelledBy="create-event-heading" closeTo="/dashboard">
      <h2 id="create-event-heading" className="pr-16 text-3xl font-bold">
        Create Event Listing
      </h2>
      <p className="mt-1 text-slate-600">Tell customers about your event or special. You can preview it before paying.</p>
      <div className="mt-6">
        <EventForm
          business={business}
          categories={categories}
          months={months}
          today={today}
          initial={initial}
          errors={actionData?.errors}
          priceTable={priceTable}
        />
      </div>
    </RouteDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
