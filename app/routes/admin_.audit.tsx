import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { ChoiceOptions, InputField } from '#app/components/form-controls.tsx'
import { FormField, type FieldState } from '#app/components/form-field.tsx'
import { ModerationAuditTable } from '#app/components/moderation-audit-table.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import {
  auditFilterChoices,
  auditFormValues,
  auditPage,
} from '#app/services/moderation/audit-trail.server.ts'

const AUDIT_TITLE = 'Moderation audit'

export const meta: MetaFunction = () => [{ title: `${AUDIT_TITLE} · ${PRODUCT_NAME}` }]

/**
 * The latest decisions, newest first, a page at a time (`page`), filtered by `from`/`to` (the last 30 days unless
 * given), `decision` and `admin`; bad filters are a 400 shown at the form's fields.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const query = new URL(request.url).searchParams
  const headers = { 'Cache-Control': 'no-store' }
  const choices = await auditFilterChoices()
  try {
    return data({ ...choices, ...(await auditPage(query)), errors: null }, { headers })
  } catch (error) {
    return errorResponse(error, {
      request,
      headers,
      reply: (refusal) => ({
        ...choices,
        filters: auditFormValues(query),
        rows: [],
        page: 1,
        previousHref: null,
        nextHref: null,
        csvHref: null,
        errors: Object.keys(refusal.fieldErrors).length ? refusal.fieldErrors : { '': [refusal.message] },
      }),
    })
  }
}

const input = 'mt-1 block max-w-full rounded-md border border-slate-300 px-3 py-2'
const linkClass = 'font-medium text-brand-700 underline'
const DATE_BOUNDS = [
  ['from', 'From'],
  ['to', 'To'],
] as const

/** The decisions, with the filters as a plain GET form (no JavaScript needed) and the CSV of the same filters. */
export default function ModerationAudit() {
  const { filters, rows, previousHref, nextHref, csvHref, decisions, administrators, errors, page } =
    useLoaderData<typeof loader>()
  const field = (name: string): FieldState => ({
    id: `audit-${name}`,
    errorId: `audit-${name}-error`,
    errors: errors?.[name],
  })
  // The page number has no field of its own.
  const formErrors = [...(errors?.[''] ?? []), ...(errors?.page ?? [])]
  return (
    <main className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold text-ink">{AUDIT_TITLE}</h1>
      <p className="mt-2 text-slate-600">
        Every moderation decision (approvals, auto-approvals, requests for changes, rejections, takedowns,
        trust granted or revoked, reports dismissed) with who took it, when and why. The trail cannot be
        changed. An ad&apos;s own decisions are on its page from the{' '}
        <Link to="/admin" className={linkClass}>
          moderation queue
        </Link>
        .
      </p>
      <Form
        method="get"
        action="/admin/audit"
        aria-label="Filter the decisions"
        className="mt-6 flex flex-wrap items-start gap-3"
      >
        {formErrors.length ? (
          <p role="alert" className="w-full text-sm text-red-700">
            {formErrors.join(' ')}
          </p>
        ) : null}
        {DATE_BOUNDS.map(([name, label]) => (
          <InputField
            key={name}
            field={field(name)}
            label={label}
            name={name}
            type="date"
            defaultValue={filters[name]}
            required
            className={input}
          />
        ))}
        <FormField field={field('decision')} label="Decision" className="max-w-full min-w-0">
          {(control) => (
            <select {...control} name="decision" defaultValue={filters.decision} className={input}>
              <option value="">Any decision</option>
              <ChoiceOptions choices={decisions} />
            </select>
          )}
        </FormField>
        <FormField field={field('admin')} label="Administrator" className="max-w-full min-w-0">
          {(control) => (
            <select {...control} name="admin" defaultValue={filters.admin} className={input}>
              <option value="">Any administrator</option>
              {administrators.map((admin) => (
                <option key={admin.id} value={admin.id}>
                  {admin.email}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <div className="flex flex-wrap items-center gap-3 self-end">
          <button
            type="submit"
            className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
          >
            Show
          </button>
          {csvHref ? (
            // A download, not a page: the browser fetches it itself.
            <a href={csvHref} className={linkClass}>
              Download CSV
            </a>
          ) : null}
        </div>
      </Form>
      <ModerationAuditTable
        rows={rows}
        caption="Moderation decisions, newest first"
        linkAds
        emptyText={errors ? 'Correct the filters to see the decisions.' : 'No decisions match these filters.'}
      />
      {previousHref || nextHref ? (
        <nav aria-label="Pages of decisions" className="mt-4 flex items-center gap-4 text-sm">
          {previousHref ? (
            <Link to={previousHref} className={linkClass}>
              ← Newer
            </Link>
          ) : null}
          <span>Page {page}</span>
          {nextHref ? (
            <Link to={nextHref} className={linkClass}>
              Older →
            </Link>
          ) : null}
        </nav>
      ) : null}
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
