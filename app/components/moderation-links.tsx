/** The way back to the moderation queue from the pages that hang off it, and the page a refused decision shows. */
import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'

const linkClass = 'font-medium text-brand-700 underline'

/** "Moderation queue", above a page's heading. */
export function ModerationQueueLink() {
  return (
    <p className="text-sm">
      <Link to="/admin" className={linkClass}>
        Moderation queue
      </Link>
    </p>
  )
}

/**
 * What a decision posted from the moderation page shows when it is refused (a tampered form, nothing chosen,
 * already decided): why, or `otherwise` when nothing was posted, and the way back.
 */
export function RefusedDecisionPage({
  title,
  message,
  otherwise,
}: {
  title: string
  message: string | undefined
  otherwise: ReactNode
}) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-ink">{title}</h1>
      {message ? (
        <p role="alert" className="mt-4 text-red-700">
          {message}
        </p>
      ) : (
        <p className="mt-4">{otherwise}</p>
      )}
      <p className="mt-4">
        <Link to="/admin" className={linkClass}>
          Back to the moderation queue
        </Link>
      </p>
    </main>
  )
}
