import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, Outlet, useActionData, useLoaderData, useNavigation, useOutlet } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { formatRecordDate } from '#app/components/ptdisease-form.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { listPtdiseases, normaliseSearch } from '#app/models/patient-records/ptdisease.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { PTDISEASE_SEARCH_MAX } from '#app/models/patient-records/ptdisease-schema.ts'
import {
  auditActor,
  handlePtdiseaseFormAction,
  NO_STORE,
  noStoreHeaders,
  requireClinician,
} from '#app/services/patient-records/ptdisease-http.server.ts'

export const meta: MetaFunction = () => [{ title: `Patient Disease Records — ${PRODUCT_NAME}` }]

export const headers = noStoreHeaders

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireClinician(request)
  const url = new URL(request.url)
  const search = normaliseSearch(url.searchParams.get('search'))
  const requested = Number(url.searchParams.get('page') ?? '1')
  const result = await listPtdiseases(
    { search, page: Number.isInteger(requested) ? requested : 1 },
    auditActor(user),
  )
  return data({ ...result, search, today: platformToday() }, { headers: NO_STORE })
}

export function action(args: ActionFunctionArgs) {
  return handlePtdiseaseFormAction(args)
}

function query(params: { search?: string; page?: number }) {
  const out = new URLSearchParams()
  if (params.search) out.set('search', params.search)
  if (params.page && params.page > 1) out.set('page', String(params.page))
  const text = out.toString()
  return text ? `?${text}` : ''
}

export default function PatientDiseases() {
  const { records, total, page, pageCount, pageSize, search } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const outlet = useOutlet()
  const listRef = useRef<HTMLDivElement>(null)
  const keep = query({ search, page })
  const searching =
    navigation.state === 'loading' &&
    navigation.formMethod?.toUpperCase() === 'GET' &&
    navigation.location.pathname === '/patient-diseases'

  // While a dialog is open the list behind it is out of reach of keyboard and screen reader.
  useEffect(() => {
    listRef.current?.toggleAttribute('inert', Boolean(outlet))
  }, [outlet])

  const first = total === 0 ? 0 : (page - 1) * pageSize + 1
  const last = Math.min(page * pageSize, total)

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

        <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-3">
          <div className="min-w-64 flex-1">
            <label htmlFor="ptdisease-search" className="block text-sm font-medium text-slate-700">
              Search records
            </label>
            <input
              id="ptdisease-search"
              name="search"
              type="search"
              defaultValue={search}
              key={search}
              maxLength={PTDISEASE_SEARCH_MAX}
              placeholder="MRN, patient #, disease, disease code or organ system"
              className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:ring-1 focus:ring-brand-500 focus:outline-none"
            />
          </div>
          <button
            type="submit"
            className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-700 hover:bg-slate-50"
          >
            {searching ? 'Searching...' : 'Search'}
          </button>
          {search ? (
            <Link to="/patient-diseases" className="px-2 py-2 text-sm font-medium text-brand-700 underline">
              Clear search
            </Link>
          ) : null}
        </Form>

        {/* relative: the rows' screen-reader-only text is positioned, and must scroll with the table, not widen the page. */}
        <div className="relative mt-6 overflow-x-auto rounded-xl border border-slate-200">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">
              Patient disease records{search ? ` matching “${search}”` : ''}
            </caption>
            <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-4 py-3">
                  MRN
                </th>
                <th scope="col" className="px-4 py-3">
                  Patient #
                </th>
                <th scope="col" className="px-4 py-3">
                  Disease
                </th>
                <th scope="col" className="px-4 py-3">
                  Disease Code
                </th>
                <th scope="col" className="px-4 py-3">
                  Organ System
                </th>
                <th scope="col" className="px-4 py-3">
                  Date Entered
                </th>
                <th scope="col" className="px-4 py-3">
                  Last Reviewed
                </th>
                <th scope="col" className="px-4 py-3">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 bg-white">
              {records.length === 0 ? (
                <tr>
                  <td colSpan={8} className="px-4 py-10 text-center text-slate-600">
                    {search ? 'No records found matching your search' : 'No patient disease records yet'}
                  </td>
                </tr>
              ) : (
                records.map((record) => (
                  <tr key={record.ptdiseaseID}>
                    <td className="px-4 py-3 font-medium text-ink">{record.mrn}</td>
                    <td className="px-4 py-3">{record.patientnumber ?? '—'}</td>
                    <td className="px-4 py-3">{record.disease}</td>
                    <td className="px-4 py-3">{record.diseasecode || '—'}</td>
                    <td className="px-4 py-3">{record.organsystem || '—'}</td>
                    <td className="px-4 py-3 whitespace-nowrap">{formatRecordDate(record.dateentered)}</td>
                    <td className="px-4 py-3 whitespace-nowrap">{formatRecordDate(record.lastreviewed)}</td>
                    <td className="px-4 py-3 whitespace-nowrap">
                      <Link
                        to={`/patient-diseases/${record.ptdiseaseID}/edit${keep}`}
                        preventScrollReset
                        className="font-medium text-brand-700 underline"
                      >
                        Edit<span className="sr-only"> record {record.mrn}</span>
                      </Link>
                      <Link
                        to={`/patient-diseases/${record.ptdiseaseID}/delete${keep}`}
                        preventScrollReset
                        className="ml-4 font-medium text-red-700 underline"
                      >
                        Delete<span className="sr-only"> record {record.mrn}</span>
                      </Link>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>

        {total > 0 ? (
          <nav
            aria-label="Pagination"
            className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm"
          >
            <p className="text-slate-600">
              Showing {first}–{last} of {total} {total === 1 ? 'record' : 'records'}
              {pageCount > 1 ? ` · Page ${page} of ${pageCount}` : ''}
            </p>
            {pageCount > 1 ? (
              <div className="flex gap-2">
                {page > 1 ? (
                  <Link
                    to={`/patient-diseases${query({ search, page: page - 1 })}`}
                    rel="prev"
                    className="rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-50"
                  >
                    Previous
                  </Link>
                ) : (
                  <span className="rounded-md border border-slate-200 px-3 py-1.5 text-slate-500">
                    Previous
                  </span>
                )}
                {page < pageCount ? (
                  <Link
                    to={`/patient-diseases${query({ search, page: page + 1 })}`}
                    rel="next"
                    className="rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-50"
                  >
                    Next
                  </Link>
                ) : (
                  <span className="rounded-md border border-slate-200 px-3 py-1.5 text-slate-500">Next</span>
                )}
              </div>
            ) : null}
          </nav>
        ) : null}
      </div>

      <Outlet />
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
