import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PtdiseaseDialog } from '#app/components/ptdisease-dialog.tsx'
import { PtdiseaseForm } from '#app/components/ptdisease-form.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { NO_STORE, noStoreHeaders } from '#app/services/http/no-store.server.ts'
import { ptdiseaseListPath } from '#app/services/patient-records/records.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import type { action } from './patient-diseases.tsx'

/** The form posts here and is answered by the list's action (create, update or delete by its intent). */
export { action } from './patient-diseases.tsx'

export const meta: MetaFunction = () => [
  { title: `Add New Record — Patient Disease Records — ${PRODUCT_NAME}` },
]

export const headers = noStoreHeaders

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'clinician')
  const closeTo = ptdiseaseListPath(new URL(request.url).searchParams)
  return data({ today: platformToday(), closeTo }, { headers: NO_STORE })
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
