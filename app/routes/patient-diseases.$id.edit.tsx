import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PtdiseaseDialog } from '#app/components/ptdisease-dialog.tsx'
import { PtdiseaseForm } from '#app/components/ptdisease-form.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { recordToInput } from '#app/models/patient-records/ptdisease-schema.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { NO_STORE, noStoreHeaders } from '#app/services/http/no-store.server.ts'
import {
  auditActor,
  ptdiseaseListPath,
  ptdiseaseOf,
  recordNotFoundError,
} from '#app/services/patient-records/records.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import type { action } from './patient-diseases.tsx'

/** The form posts here and is answered by the list's action (create, update or delete by its intent). */
export { action } from './patient-diseases.tsx'

export const meta: MetaFunction = () => [{ title: `Edit Record — Patient Disease Records — ${PRODUCT_NAME}` }]

export const headers = noStoreHeaders

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, 'clinician')
  const record = await ptdiseaseOf(params.id, auditActor(user))
  if (!record) throw errorResponse(recordNotFoundError(), { headers: NO_STORE })
  const closeTo = ptdiseaseListPath(new URL(request.url).searchParams)
  return data({ record, today: platformToday(), closeTo }, { headers: NO_STORE })
}

export default function EditPtdisease() {
  const { record, today, closeTo } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <PtdiseaseDialog title="Edit Record" closeTo={closeTo}>
      <p className="-mt-2 mb-4 text-sm text-slate-600">
        MRN {record.mrn} ·{' '}
        <Link
          to={`/patient-diseases/${record.ptdiseaseID}/history${closeTo.slice('/patient-diseases'.length)}`}
          className="font-medium text-brand-700 underline"
        >
          View history
        </Link>
      </p>
      <PtdiseaseForm
        key={record.ptdiseaseID}
        intent="update"
        recordId={record.ptdiseaseID}
        defaultValue={recordToInput(record)}
        lastResult={actionData?.result}
        message={actionData?.message}
        today={today}
        cancelTo={closeTo}
        computed={record}
      />
    </PtdiseaseDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
