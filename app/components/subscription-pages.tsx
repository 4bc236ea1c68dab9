import type { ReactNode } from 'react'
import { GeneralErrorBoundary } from './error-boundary.tsx'

/** The frame of the subscription pages: a heading and what follows it. */
export function SubscriptionPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-2xl font-bold text-ink">{title}</h1>
      {children}
    </main>
  )
}

function LinkProblem({ title, message }: { title: string; message: string }) {
  return (
    <SubscriptionPage title={title}>
      <p role="alert" className="mt-3 text-slate-700">
        {message}
      </p>
      <p className="mt-4">
        <a href="/calendar" className="font-medium text-brand-700 underline">
          Go to the calendar
        </a>
      </p>
    </SubscriptionPage>
  )
}

/** A tampered or expired link (400) and a subscription that is gone (404), each saying what to do. */
export function SubscriptionLinkBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        400: ({ message }) => <LinkProblem title="This link does not work" message={message} />,
        404: ({ message }) => <LinkProblem title="No such subscription" message={message} />,
      }}
    />
  )
}

/** The token pages are private to whoever holds the link: not stored, not indexed, and the link is not passed on. */
export const TOKEN_PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
}
