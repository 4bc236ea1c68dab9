import { isRouteErrorResponse, Link, useRouteError } from '@remix-run/react'
import type { ReactNode } from 'react'

type StatusHandler = (info: { status: number; message: string }) => ReactNode

function messageOf(data: unknown, fallback: string) {
  if (typeof data === 'string' && data) return data
  if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string') return data.message
  return fallback
}

export function NotFoundScreen({ title = 'Page Not Found', message }: { title?: string; message?: string }) {
  return (
    <main className="mx-auto max-w-xl px-4 py-20 text-center">
      <p className="text-6xl font-black text-brand-600">404</p>
      <h1 className="mt-4 text-3xl font-bold text-ink">{title}</h1>
      <p className="mt-3 text-slate-600">{message ?? "The page you're looking for doesn't exist or has moved."}</p>
      <Link to="/landing" className="mt-8 inline-block rounded-md bg-brand-600 px-4 py-2 font-medium text-white">
        Go to the home page
      </Link>
    </main>
  )
}

/** One error screen for every route; callers may give their own text per status. */
export function GeneralErrorBoundary({
  statusHandlers,
}: {
  statusHandlers?: Record<number, StatusHandler>
}) {
  const error = useRouteError()
  if (isRouteErrorResponse(error)) {
    const message = messageOf(error.data, error.statusText)
    const handler = statusHandlers?.[error.status]
    if (handler) return <>{handler({ status: error.status, message })}</>
    if (error.status === 404) return <NotFoundScreen message={message || undefined} />
    return (
      <main className="mx-auto max-w-xl px-4 py-20 text-center">
        <p className="text-5xl font-black text-brand-600">{error.status}</p>
        <h1 className="mt-4 text-2xl font-bold text-ink">
          {error.status === 403 ? 'Access denied' : error.status === 401 ? 'Please sign in' : 'Something went wrong'}
        </h1>
        <p className="mt-3 text-slate-600">{message}</p>
      </main>
    )
  }
  return (
    <main className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="text-2xl font-bold text-ink">Something went wrong</h1>
      <p className="mt-3 text-slate-600">An unexpected error occurred. Please try again in a moment.</p>
    </main>
  )
}
