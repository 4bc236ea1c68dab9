import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PtdiseaseDialog } from '#app/components/ptdisease-dialog.tsx'
import { PtdiseaseForm } from '#app/components/ptdisease-form.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { recordToInput } from '#app/models/patient-records/ptdisease-schema.ts'
import {
  handlePtdiseaseFormAction,
  listLocation,
  NO_STORE,
  noStoreHeaders,
  requireClinicianRecord,
} from '#app/services/patient-records/ptdisease-http.server.ts'

export const meta: MetaFunction = () => [{ title: `Edit Record — Patient Disease Records — ${PRODUCT_NAME}` }]

export const headers = noStoreHeaders

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { record } = await requireClinicianRecord(request, params.id)
  return data({ record, today: platformToday(), closeTo: listLocation(request) }, { headers: NO_STORE })
}

export function action(args: ActionFunctionArgs) {
  return handlePtdiseaseFormAction(args)
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
