/** What the administrator said when sending the ad back or rejecting it, as its advertiser reads it. */
export function ReviewReason({ reason, className = '' }: { reason: string; className?: string }) {
  return (
    <div
      data-testid="review-reason"
      className={`rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-slate-800 ${className}`}
    >
      <p className="font-semibold">Our reviewer&apos;s note</p>
      <p className="mt-1 break-words whitespace-pre-line">{reason}</p>
    </div>
  )
}
