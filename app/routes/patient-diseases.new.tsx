import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PtdiseaseDialog } from '#app/components/ptdisease-dialog.tsx'
import { PtdiseaseForm } from '#app/components/ptdisease-form.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import {
  handlePtdiseaseFormAction,
  listLocation,
  NO_STORE,
  noStoreHeaders,
  requireClinician,
} from '#app/services/patient-records/ptdisease-http.server.ts'

export const meta: MetaFunction = () => [
  { title: `Add New Record — Patient Disease Records — ${PRODUCT_NAME}` },
]

export const headers = noStoreHeaders

export async function loader({ request }: LoaderFunctionArgs) {
  await requireClinician(request)
  return data({ today: platformToday(), closeTo: listLocation(request) }, { headers: NO_STORE })
}

export function action(args: ActionFunctionArgs) {
  return handlePtdiseaseFormAction(args)
}

export default function NewPtdisease() {
  const { today, closeTo } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <PtdiseaseDialog title="Add New Record" closeTo={closeTo}>
      <PtdiseaseForm
        intent="create"
        defaultValue={{ dateentered: today }}
        lastResult={actionData?.result}
        message={actionData?.message}
        today={today}
        cancelTo={closeTo}
      />
    </PtdiseaseDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
