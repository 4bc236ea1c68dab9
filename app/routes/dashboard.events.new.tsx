import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data, redirect } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { RouteDialog } from '#app/components/route-dialog.tsx'
import { EventForm } from '#app/components/event-form.tsx'
import { requireBusiness, type BusinessSessionCopy } from '#app/services/http/auth.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { getEventDraft } from '#app/services/ads/draft.server.ts'
import { eventFormPost } from '#app/services/ads/draft-form.server.ts'
import {
  fillFromLink,
  fillTypedForm,
  takeLinkFillSlot,
  linkPhotoOf,
} from '#app/services/ads/fill-from-link.server.ts'
import { newEventFormPage } from '#app/services/ads/form-page.server.ts'
import { LINK_ADDRESS_MAX } from '#app/models/ads/link-event-form.ts'
import { linkFillSchema } from '#app/models/ads/link-fill-schema.ts'
import {
  parseFormSubmission,
  refusalMessage,
  refusalReply,
} from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { getSession, sessionStorage } from '#app/services/http/session.server.ts'
import { stageFormPost } from '#app/services/http/staged-form-post.server.ts'
import { AppError } from '#app/utils/app-error.ts'

export const meta: MetaFunction = () => [{ title: 'Create Event Listing · EventShout' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  // The address "Edit Event" used to lead to.
  const from = parseId(new URL(request.url).searchParams.get('from'))
  if (from) throw redirect(`/dashboard/events/${from}/edit`)
  const session = await getSession(request)
  const page = await newEventFormPage(business, getEventDraft(session))
  if (!page) throw redirect('/login')
  return { ...page, linkPhotoName: linkPhotoOf(session)?.originalName ?? null }
}

/**
 * Without JavaScript: the form posts here, the fields and files wait in the session as the draft, and the preview is
 * its own page. A refusal comes back to the form with what was typed (nothing when the body could not be read).
 */
export async function action({ request }: ActionFunctionArgs) {
  const business = await requireBusiness(request)
  // The form posts multipart; "Fill from a link" is a form of its own, posted url-encoded.
  if (/^application\/x-www-form-urlencoded/i.test(request.headers.get('Content-Type') ?? ''))
    return fillFromLinkAnswer(request, business)
  return stageFormPost(request, eventFormPost(), '/dashboard/events/preview')
}

/**
 * "Fill from a link". Without JavaScript the form comes back as it was (the session's draft, or blank) with what the
 * link gave in place, and its photo waits in the session; with it (`photoInline`) the answer is the fields and the
 * photo's bytes for the form to fill in. A link that cannot be read is a 400 saying why, at the link's field.
 */
async function fillFromLinkAnswer(request: Request, business: BusinessSessionCopy) {
  const session = await getSession(request)
  const page = await newEventFormPage(business, getEventDraft(session))
  if (!page) throw redirect('/login')
  let inline = false
  let linkAddress = ''
  try {
    const form = await readFormData(request)
    inline = form.get('photoInline') === '1'
    linkAddress = String(form.get('linkAddress') ?? '').slice(0, LINK_ADDRESS_MAX)
    const submission = parseFormSubmission(form, linkFillSchema)
    if (submission.status !== 'success') {
      const message = refusalMessage(submission)
      throw new AppError(message, 'invalid', { fieldErrors: { linkAddress: [message] } })
    }
    const address = submission.value.linkAddress
    await takeLinkFillSlot(business.businessID)
    if (inline) {
      const { values, report, photo } = await fillFromLink(address)
      const inlinePhoto = photo && {
        name: photo.name,
        type: photo.mime,
        base64: photo.bytes.toString('base64'),
      }
      return data({ filled: { values, report }, photo: inlinePhoto ?? null })
    }
    const { initial, report } = await fillTypedForm(session, { address, typed: page.initial })
    return data(
      { result: { initialValue: initial, error: {} }, linkAddress, report },
      { headers: { 'Set-Cookie': await sessionStorage.commitSession(session) } },
    )
  } catch (error) {
    if (inline) return errorResponse(error, { request })
    return errorResponse(error, {
      request,
      reply: (refusal) => ({ result: refusalReply(refusal, page.initial, 'linkAddress'), linkAddress }),
    })
  }
}

export default function NewEventPage() {
  const { linkPhotoName, ...form } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const answer = actionData && 'result' in actionData ? actionData : undefined
  return (
    <RouteDialog labelledBy="create-event-heading" closeTo="/dashboard">
      <h2 id="create-event-heading" className="pr-16 text-3xl font-bold">
        Create Event Listing
      </h2>
      <p className="mt-1 text-slate-600">
        Tell customers about your event or special. You can preview it before paying.
      </p>
      <div className="mt-6">
        <EventForm
          {...form}
          initial={answer?.result.initialValue ?? form.initial}
          errors={answer?.result.error}
          fillFromLink={{
            report: answer && 'report' in answer ? answer.report : null,
            linkAddress: answer && 'linkAddress' in answer ? answer.linkAddress : undefined,
            linkPhotoName,
          }}
        />
      </div>
    </RouteDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
