import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react'
import { useEffect } from 'react'
import { DialogActions } from '#app/components/dialog-actions.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PtdiseaseDialog } from '#app/components/ptdisease-dialog.tsx'
import { toast } from '#app/components/toaster.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { NO_STORE, noStoreHeaders } from '#app/services/http/no-store.server.ts'
import {
  auditActor,
  ptdiseaseListPath,
  ptdiseaseOf,
  recordNotFoundError,
} from '#app/services/patient-records/records.server.ts'
import type { action } from './patient-diseases.tsx'

/** The confirmation posts here and is answered by the list's action (delete, by its intent). */
export { action } from './patient-diseases.tsx'

export const meta: MetaFunction = () => [
  { title: `Delete Record — Patient Disease Records — ${PRODUCT_NAME}` },
]

export const headers = noStoreHeaders

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, 'clinician')
  const record = await ptdiseaseOf(params.id, auditActor(user))
  if (!record) throw errorResponse(recordNotFoundError(), { headers: NO_STORE })
  return data(
    {
      record: { ptdiseaseID: record.ptdiseaseID, mrn: record.mrn, disease: record.disease },
      closeTo: ptdiseaseListPath(new URL(request.url).searchParams),
    },
    { headers: NO_STORE },
  )
}

/** The delete confirmation: a dialog over the list, and a page of its own without JavaScript. */
export default function DeletePtdisease() {
  const { record, closeTo } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const location = useLocation()
  const deleting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete'

  useEffect(() => {
    if (actionData?.message)
      toast({ title: 'Error', description: actionData.message, variant: 'destructive' })
  }, [actionData])

  return (
    <PtdiseaseDialog title="Are you sure?" closeTo={closeTo} size="small">
      <p className="text-slate-700">
        This will permanently delete the patient disease record for MRN <strong>{record.mrn}</strong> (
        {record.disease}). This action cannot be undone.
      </p>
      {actionData?.message ? (
        <p role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {actionData.message}
        </p>
      ) : null}
      <Form method="post" action={`${location.pathname}${location.search}`} className="mt-6">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={record.ptdiseaseID} />
        <DialogActions
          leave={{ to: closeTo, label: 'Cancel', autoFocus: true }}
          submit={{ label: 'Delete', busyLabel: 'Deleting...', busy: deleting, tone: 'danger' }}
        />
      </Form>
    </PtdiseaseDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
