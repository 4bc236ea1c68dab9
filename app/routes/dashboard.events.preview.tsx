import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, useLoaderData, useNavigation } from '@remix-run/react'
import { ChosenDates } from '#app/components/chosen-dates.tsx'
import { CustomerEventCard } from '#app/components/customer-event-card.tsx'
import { RESUBMIT_LABEL } from '#app/components/event-form.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { RouteDialog } from '#app/components/route-dialog.tsx'
import { requireBusiness } from '#app/services/accounts/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { decideOnPreview, draftPreview } from '#app/services/ads/preview.server.ts'

export const meta: MetaFunction = () => [{ title: 'Preview Your Ad · EventShout' }]

export async function loader({ request }: LoaderFunctionArgs) {
  return draftPreview(request, await requireBusiness(request))
}

export async function action({ request }: ActionFunctionArgs) {
  try {
    return await decideOnPreview(request, await requireBusiness(request))
  } catch (error) {
    // A body the reader refuses (413/415/400), or a failure: the page's error boundary shows it.
    throw errorResponse(error, { request })
  }
}

export default function PreviewPage() {
  const { card, cost, dates, afterPayment, photoFileName, videoFileName } = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  return (
    <RouteDialog labelledBy="preview-page-heading" closeTo="/dashboard">
      <h2 id="preview-page-heading" className="pr-16 text-3xl font-bold">
        Preview Your Ad - Customer View
      </h2>
      <p className="mt-2 text-lg font-semibold">
        Total Cost: ${cost}
        {afterPayment ? ' (paid)' : ''}
      </p>
      <ChosenDates dates={dates} />
      <Form method="post" id="preview-form" />
      <CustomerEventCard
        className="mt-4"
        mode="preview"
        cost={cost}
        event={card}
        media={{ photoFileName, videoFileName }}
        approve={{
          submit: { form: 'preview-form', name: 'intent', value: 'approve' },
          disabled: busy,
          label: afterPayment ? RESUBMIT_LABEL : undefined,
        }}
        reject={{ submit: { form: 'preview-form', name: 'intent', value: 'cancel' }, disabled: busy }}
      />
    </RouteDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
