import { TZDate } from '@date-fns/tz'
import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { format } from 'date-fns/format'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PtdiseaseDialog } from '#app/components/ptdisease-dialog.tsx'
import { formatRecordDate } from '#app/components/ptdisease-form.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import {
  getPtdiseaseHistory,
  parsePtdiseaseId,
  type FieldChanges,
} from '#app/models/patient-records/ptdisease.server.ts'
import { PTDISEASE_FIELD_LABELS } from '#app/models/patient-records/ptdisease-schema.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { NO_STORE, noStoreHeaders } from '#app/services/http/no-store.server.ts'
import {
  auditActor,
  ptdiseaseListPath,
  recordNotFoundError,
} from '#app/services/patient-records/records.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'

export const meta: MetaFunction = () => [
  { title: `Record History — Patient Disease Records — ${PRODUCT_NAME}` },
]

export const headers = noStoreHeaders

const ACTION_LABELS: Record<string, string> = {
  create: 'Created',
  update: 'Updated',
  delete: 'Deleted',
  view: 'Viewed',
  history: 'Viewed history',
  list: 'Listed',
}

const FIELD_ORDER = Object.keys(PTDISEASE_FIELD_LABELS)
const fieldOrder = (field: string) => {
  const index = FIELD_ORDER.indexOf(field)
  return index === -1 ? FIELD_ORDER.length : index
}

const DATE_FIELDS = new Set(['dob', 'dateentered', 'lastreviewed', 'dateDue'])

function display(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (DATE_FIELDS.has(field) && typeof value === 'string') return formatRecordDate(value)
  return String(value)
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, 'clinician')
  const id = parsePtdiseaseId(params.id)
  const history = id === null ? null : await getPtdiseaseHistory(id, auditActor(user))
  if (id === null || !history) throw errorResponse(recordNotFoundError(), { headers: NO_STORE })
  const timeZone = getEnv().APP_TIME_ZONE
  // Formatted here, in the platform time zone, so server and browser render the same text.
  const entries = history.entries.map((entry) => ({
    id: entry.id,
    when: format(new TZDate(entry.occurredAt, timeZone), 'MM/dd/yyyy h:mm:ss a'),
    who: entry.userEmail || 'unknown user',
    action: ACTION_LABELS[entry.action] ?? entry.action,
    changes: Object.entries((entry.changes ?? {}) as FieldChanges)
      .filter(([, change]) => change && typeof change === 'object' && 'from' in change)
      // jsonb keeps its own key order; show fields in the form's order.
      .sort(([a], [b]) => fieldOrder(a) - fieldOrder(b))
      .map(([field, change]) => ({
        field: PTDISEASE_FIELD_LABELS[field as keyof typeof PTDISEASE_FIELD_LABELS] ?? field,
        from: display(field, change.from),
        to: display(field, change.to),
      })),
  }))
  return data(
    {
      id,
      mrn: history.record?.mrn ?? null,
      deleted: history.record === null,
      entries,
      timeZone,
      closeTo: ptdiseaseListPath(new URL(request.url).searchParams),
    },
    { headers: NO_STORE },
  )
}

export default function PtdiseaseHistory() {
  const { id, mrn, deleted, entries, timeZone, closeTo } = useLoaderData<typeof loader>()
  return (
    <PtdiseaseDialog title="Record History" closeTo={closeTo}>
      <p className="-mt-2 mb-4 text-sm text-slate-600">
        {deleted ? 'This record has been deleted; its history is kept.' : `MRN ${mrn}`}
        {' · '}Times in {timeZone}
        {deleted ? null : (
          <>
            {' · '}
            <Link
              to={`/patient-diseases/${id}/edit${closeTo.slice('/patient-diseases'.length)}`}
              className="font-medium text-brand-700 underline"
            >
              Edit record
            </Link>
          </>
        )}
      </p>
      <ol className="grid gap-3">
        {entries.map((entry) => (
          <li key={entry.id} className="rounded-lg border border-slate-200 p-3">
            <p className="text-sm">
              <strong>{entry.action}</strong> by {entry.who} on {entry.when}
            </p>
            {entry.changes.length ? (
              <table className="mt-2 w-full text-left text-sm">
                <thead className="text-xs text-slate-500 uppercase">
                  <tr>
                    <th scope="col" className="py-1 pr-3">
                      Field
                    </th>
                    <th scope="col" className="py-1 pr-3">
                      Before
                    </th>
                    <th scope="col" className="py-1">
                      After
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {entry.changes.map((change) => (
                    <tr key={change.field} className="border-t border-slate-100">
                      <td className="py-1 pr-3 font-medium">{change.field}</td>
                      <td className="py-1 pr-3">{change.from}</td>
                      <td className="py-1">{change.to}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </li>
        ))}
      </ol>
    </PtdiseaseDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
