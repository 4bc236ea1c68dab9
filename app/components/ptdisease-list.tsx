import { Form, Link, useNavigation } from '@remix-run/react'
import { formatRecordDate } from '#app/components/ptdisease-form.tsx'
import { PTDISEASE_SEARCH_MAX } from '#app/models/patient-records/ptdisease-schema.ts'

/** The parts of the patient-record list: the search, the table of records and the pages. */

/** The list's query string for a search and a page ('' for the first page of everything). */
export function listQuery(params: { search?: string; page?: number }) {
  const out = new URLSearchParams()
  if (params.search) out.set('search', params.search)
  if (params.page && params.page > 1) out.set('page', String(params.page))
  const text = out.toString()
  return text ? `?${text}` : ''
}

/** What a row shows of a record. */
export interface RecordRow {
  ptdiseaseID: number
  mrn: string
  patientnumber: number | null
  disease: string
  diseasecode: string
  organsystem: string
  dateentered: string | null
  lastreviewed: string | null
}

export function RecordSearch({ search }: { search: string }) {
  const navigation = useNavigation()
  const searching =
    navigation.state === 'loading' &&
    navigation.formMethod?.toUpperCase() === 'GET' &&
    navigation.location.pathname === '/patient-diseases'
  return (
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
  )
}

const COLUMNS = [
  'MRN',
  'Patient #',
  'Disease',
  'Disease Code',
  'Organ System',
  'Date Entered',
  'Last Reviewed',
  'Actions',
]

/** The records of one page; `keep` is the list's query, kept by the edit and delete dialogs. */
export function RecordsTable({
  records,
  search,
  keep,
}: {
  records: RecordRow[]
  search: string
  keep: string
}) {
  return (
    // relative: the rows' screen-reader-only text is positioned, and must scroll with the table, not widen the page.
    <div className="relative mt-6 overflow-x-auto rounded-xl border border-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Patient disease records{search ? ` matching “${search}”` : ''}</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className="px-4 py-3">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {records.length === 0 ? (
            <tr>
              <td colSpan={COLUMNS.length} className="px-4 py-10 text-center text-slate-600">
                {search ? 'No records found matching your search' : 'No patient disease records yet'}
              </td>
            </tr>
          ) : (
            records.map((record) => <RecordTableRow key={record.ptdiseaseID} record={record} keep={keep} />)
          )}
        </tbody>
      </table>
    </div>
  )
}

function RecordTableRow({ record, keep }: { record: RecordRow; keep: string }) {
  return (
    <tr>
      <td className="px-4 py-3 font-medium text-ink">{record.mrn}</td>
      <td className="px-4 py-3">{record.patientnumber ?? '—'}</td>
      <td className="px-4 py-3">{record.disease}</td>
      <td className="px-4 py-3">{record.diseasecode || '—'}</td>
      <td className="px-4 py-3">{record.organsystem || '—'}</td>
      <td className="px-4 py-3 whitespace-nowrap">{formatRecordDate(record.dateentered)}</td>
      <td className="px-4 py-3 whitespace-nowrap">{formatRecordDate(record.lastreviewed)}</td>
      <td className="px-4 py-3 whitespace-nowrap">
        <RecordLink
          record={record}
          keep={keep}
          action="edit"
          className="font-medium text-brand-700 underline"
        >
          Edit
        </RecordLink>
        <RecordLink
          record={record}
          keep={keep}
          action="delete"
          className="ml-4 font-medium text-red-700 underline"
        >
          Delete
        </RecordLink>
      </td>
    </tr>
  )
}

/** A row's link to edit or delete its record; a screen reader hears which record ("Edit record MRN-1"). */
function RecordLink({
  record,
  keep,
  action,
  className,
  children,
}: {
  record: RecordRow
  keep: string
  action: 'edit' | 'delete'
  className: string
  children: string
}) {
  return (
    <Link
      to={`/patient-diseases/${record.ptdiseaseID}/${action}${keep}`}
      preventScrollReset
      className={className}
    >
      {children}
      <span className="sr-only"> record {record.mrn}</span>
    </Link>
  )
}

const pageLink = 'rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-50'
const noPage = 'rounded-md border border-slate-200 px-3 py-1.5 text-slate-500'

/** Which records of how many are shown, and the previous and next pages. Nothing when there are no records. */
export function RecordsPagination({
  search,
  page,
  pageCount,
  pageSize,
  total,
}: {
  search: string
  page: number
  pageCount: number
  pageSize: number
  total: number
}) {
  if (total === 0) return null
  const first = (page - 1) * pageSize + 1
  const last = Math.min(page * pageSize, total)
  return (
    <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-slate-600">
        Showing {first}–{last} of {total} {total === 1 ? 'record' : 'records'}
        {pageCount > 1 ? ` · Page ${page} of ${pageCount}` : ''}
      </p>
      {pageCount > 1 ? (
        <div className="flex gap-2">
          {page > 1 ? (
            <Link
              to={`/patient-diseases${listQuery({ search, page: page - 1 })}`}
              rel="prev"
              className={pageLink}
            >
              Previous
            </Link>
          ) : (
            <span className={noPage}>Previous</span>
          )}
          {page < pageCount ? (
            <Link
              to={`/patient-diseases${listQuery({ search, page: page + 1 })}`}
              rel="next"
              className={pageLink}
            >
              Next
            </Link>
          ) : (
            <span className={noPage}>Next</span>
          )}
        </div>
      ) : null}
    </nav>
  )
}
