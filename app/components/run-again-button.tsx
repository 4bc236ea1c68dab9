/**
 * "Run again" for an ad that was paid for: a plain form posting to its run-again address, so it works without
 * JavaScript; the new ad's form opens next.
 */
export function RunAgainButton({
  eventID,
  title,
  className,
}: {
  eventID: number
  title: string
  className?: string
}) {
  return (
    <form method="post" action={`/dashboard/events/${eventID}/run-again`} className={className}>
      <button
        type="submit"
        className="rounded-md border border-brand-700 bg-white px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-brand-50"
      >
        Run again<span className="sr-only"> {title}</span>
      </button>
    </form>
  )
}
