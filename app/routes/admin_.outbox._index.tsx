import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { UtcTime } from '#app/components/utc-time.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { listOutbox, OUTBOX_PAGE_SIZE } from '#app/models/mail/outbox.server.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { parseId } from '#app/models/platform/input-rules.ts'

const OUTBOX_TITLE = 'Outbox'

export const meta: MetaFunction = () => [{ title: `${OUTBOX_TITLE} · ${PRODUCT_NAME}` }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const asked = new URL(request.url).searchParams.get('page')
  const page = asked === null ? 1 : parseId(asked)
  if (page === null) throw errorResponse(new AppError('page must be a whole number from 1', 'invalid'))
  const { messages, total } = await listOutbox(page)
  return data(
    {
      page,
      pageCount: Math.max(1, Math.ceil(total / OUTBOX_PAGE_SIZE)),
      total,
      sending: Boolean(getEnv().SMTP_URL),
      messages: messages.map((m) => ({
        ...m,
        createdAt: m.createdAt.toISOString(),
        sentAt: m.sentAt?.toISOString() ?? null,
      })),
    },
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

export default function AdminOutbox() {
  const { page, pageCount, total, sending, messages } = useLoaderData<typeof loader>()
  return (
    <main className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold text-ink">{OUTBOX_TITLE}</h1>
      <p className="mt-2 text-slate-600">
        {sending
          ? 'Every email the platform sends, newest first. Messages not sent yet are retried with increasing waits.'
          : 'SMTP_URL is not set, so no email is sent: every message waits here, newest first.'}{' '}
        {total} message{total === 1 ? '' : 's'}.
      </p>
      {messages.length === 0 ? (
        <p className="mt-8 text-slate-600">No messages.</p>
      ) : (
        <table className="mt-6 w-full text-left text-sm" data-testid="outbox">
          <thead>
            <tr className="border-b border-slate-200">
              <th className="py-2 pr-3">Queued</th>
              <th className="py-2 pr-3">Status</th>
              <th className="py-2 pr-3">To</th>
              <th className="py-2">Subject</th>
            </tr>
          </thead>
          <tbody>
            {messages.map((m) => (
              <tr key={m.id} className="border-b border-slate-100 align-top">
                <td className="py-2 pr-3 whitespace-nowrap">
                  <UtcTime iso={m.createdAt} />
                </td>
                <td className="py-2 pr-3">
                  {m.status}
                  {m.attempts > 0 && m.status !== 'sent'
                    ? ` (${m.attempts} attempt${m.attempts === 1 ? '' : 's'})`
                    : ''}
                </td>
                <td className="py-2 pr-3 break-all">{m.toAddress}</td>
                <td className="py-2 wrap-anywhere">
                  <Link to={`/admin/outbox/${m.id}`} className="font-medium text-brand-700 underline">
                    {m.subject}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav className="mt-6 flex gap-4" aria-label="Pages">
        {page > 1 ? <Link to={`/admin/outbox?page=${page - 1}`}>Newer</Link> : null}
        {page < pageCount ? <Link to={`/admin/outbox?page=${page + 1}`}>Older</Link> : null}
      </nav>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
