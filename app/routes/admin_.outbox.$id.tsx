import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { HIDDEN_TOKEN } from '#app/models/mail/hidden-tokens.ts'
import { getOutboxMessage } from '#app/models/mail/outbox.server.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { parseId } from '#app/models/platform/input-rules.ts'

const MESSAGE_NOT_FOUND = 'Message not found'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.message.subject ?? 'Message'} · Outbox · ${PRODUCT_NAME}` },
]

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const id = parseId(params.id)
  const message = id === null ? null : await getOutboxMessage(id)
  if (!message) throw errorResponse(new AppError(MESSAGE_NOT_FOUND, 'not_found'))
  return data(
    {
      message: {
        id: message.id,
        kind: message.kind,
        to: message.toAddress,
        subject: message.subject,
        text: message.textBody,
        html: message.htmlBody,
        status: message.status,
        attempts: message.attempts,
        lastError: message.lastError,
        createdAt: message.createdAt.toISOString(),
        nextAttemptAt: message.nextAttemptAt.toISOString(),
        sentAt: message.sentAt?.toISOString() ?? null,
      },
    },
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

export default function OutboxMessage() {
  const { message } = useLoaderData<typeof loader>()
  const rows: Array<[string, string]> = [
    ['To', message.to],
    ['Status', message.status],
    ['Attempts', String(message.attempts)],
    ['Queued', message.createdAt],
    ...(message.sentAt ? [['Sent', message.sentAt] as [string, string]] : []),
    ...(message.status === 'pending' ? [['Next attempt', message.nextAttemptAt] as [string, string]] : []),
    ...(message.lastError ? [['Last error', message.lastError] as [string, string]] : []),
    ['Kind', message.kind],
  ]
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <p>
        <Link to="/admin/outbox" className="text-brand-700 underline">
          ← Outbox
        </Link>
      </p>
      <h1 className="mt-4 text-2xl font-bold wrap-anywhere text-ink">{message.subject}</h1>
      {/* A long address, link or error breaks anywhere, so the page fits a phone's width. */}
      <dl className="mt-4 grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] gap-2 text-sm sm:grid-cols-[9rem_minmax(0,1fr)]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-500">{label}</dt>
            <dd className="min-w-0 wrap-anywhere">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-8 text-sm text-slate-600">
        Links that act for the recipient, such as confirm and unsubscribe, are shown with their key replaced
        by {HIDDEN_TOKEN}: only the email itself has the working links.
      </p>
      <h2 className="mt-4 text-lg font-semibold">Text</h2>
      <pre
        data-testid="text-body"
        className="mt-2 max-w-full rounded-md border border-slate-200 bg-slate-50 p-4 text-sm wrap-anywhere whitespace-pre-wrap"
      >
        {message.text}
      </pre>
      <h2 className="mt-8 text-lg font-semibold">HTML</h2>
      {/* An empty sandbox: the message's HTML runs no script and reaches nothing of this page. */}
      <iframe
        title="The message as HTML"
        sandbox=""
        srcDoc={message.html}
        className="mt-2 block h-96 w-full max-w-full rounded-md border border-slate-200 bg-white"
      />
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
