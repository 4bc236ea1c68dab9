import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, Outlet, useActionData, useLoaderData, useOutlet } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { listQuery, RecordSearch, RecordsPagination, RecordsTable } from '#app/components/ptdisease-list.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { listPtdiseases, normaliseSearch } from '#app/models/patient-records/ptdisease.server.ts'
import { isPtdiseaseIntent, PTDISEASE_MESSAGES } from '#app/models/patient-records/ptdisease-schema.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import {
  formRefusal,
  parseFormSubmission,
  type SubmissionResult,
} from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { NO_STORE, noStoreHeaders } from '#app/services/http/no-store.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import {
  auditActor,
  ptdiseaseIntentServerSchema,
  ptdiseaseListPath,
  savePtdiseaseForm,
} from '#app/services/patient-records/records.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { isAppError } from '#app/utils/app-error.ts'

export const meta: MetaFunction = () => [{ title: `Patient Disease Records — ${PRODUCT_NAME}` }]

export const headers = noStoreHeaders

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, 'clinician')
  const url = new URL(request.url)
  const search = normaliseSearch(url.searchParams.get('search'))
  const requested = Number(url.searchParams.get('page') ?? '1')
  const result = await listPtdiseases(
    { search, page: Number.isInteger(requested) ? requested : 1 },
    auditActor(user),
  )
  return data({ ...result, search, today: platformToday() }, { headers: NO_STORE })
}

export interface PtdiseaseActionData {
  message: string
  result: SubmissionResult<string[]> | null
}

/**
 * The action of the list and of its new, edit and delete dialogs (they export this one): `intent` picks create,
 * update or delete. Success goes back to the list with a toast (which closes a dialog); bad input re-renders the
 * form (400); a record that is gone is told in a toast on the list. Nothing is cached.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, 'clinician')
  // A body the reader refuses (413/415/400) is shown by the page's error boundary, not cached.
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request, headers: NO_STORE })
  })
  const refuse = (message: string, result: PtdiseaseActionData['result']) =>
    formRefusal(result, { headers: NO_STORE, extra: { message } })
  if (!isPtdiseaseIntent(form.get('intent'))) return refuse(PTDISEASE_MESSAGES.unknownIntent, null)
  const submission = parseFormSubmission(form, ptdiseaseIntentServerSchema, { disableAutoCoercion: true })
  if (submission.status !== 'success') {
    const message = PTDISEASE_MESSAGES.invalidForm
    return refuse(message, submission.reply({ formErrors: [message] }))
  }
  const back = ptdiseaseListPath(new URL(request.url).searchParams)
  try {
    const description = await savePtdiseaseForm(submission.value, {
      pageId: params.id,
      actor: auditActor(user),
    })
    return redirectWithToast(back, { title: 'Success', description }, { headers: NO_STORE })
  } catch (error) {
    if (!isAppError(error)) throw error
    if (error.kind === 'not_found') {
      const toast = { title: 'Error', description: error.message, variant: 'destructive' } as const
      return redirectWithToast(back, toast, { headers: NO_STORE })
    }
    return errorResponse(error, {
      headers: NO_STORE,
      reply: (refusal): PtdiseaseActionData => ({
        message: refusal.message,
        result: submission.reply({ formErrors: [refusal.message] }),
      }),
    })
  }
}

export default function PatientDiseases() {
  const { records, total, page, pageCount, pageSize, search } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const outlet = useOutlet()
  const listRef = useRef<HTMLDivElement>(null)
  const keep = listQuery({ search, page })

  // While a dialog is open the list behind it is out of reach of keyboard and screen reader.
  useEffect(() => {
    listRef.current?.toggleAttribute('inert', Boolean(outlet))
  }, [outlet])

  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <div ref={listRef}>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-3xl font-bold text-ink">Patient Disease Records</h1>
            <p className="mt-1 text-slate-600">
              Clinical tool for clinicians. Records are confidential; every view and change is recorded.
            </p>
          </div>
          <Link
            to={`/patient-diseases/new${keep}`}
            preventScrollReset
            className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
          >
            Add New Record
          </Link>
        </div>

        {actionData?.message ? (
          <p
            role="alert"
            className="mt-6 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
          >
            {actionData.message}
          </p>
        ) : null}

        <RecordSearch search={search} />
        <RecordsTable records={records} search={search} keep={keep} />
        <RecordsPagination
          search={search}
          page={page}
          pageCount={pageCount}
          pageSize={pageSize}
          total={total}
        />
      </div>

      <Outlet />
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
