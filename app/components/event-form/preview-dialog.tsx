import { CustomerEventCard } from '#app/components/customer-event-card.tsx'
import { ModalBackdrop } from '#app/components/modal-backdrop.tsx'
import type { CustomerCardData } from '#app/models/ads/customer-card.ts'

/** The customer's view of the ad before it is saved, with Approve (upload and save) and Reject (back to the form). */
export function PreviewDialog({
  card,
  cost,
  progress,
  photoFileName,
  videoFileName,
  onApprove,
  onReject,
  approveLabel,
  freeNote,
  priceNote,
}: {
  /** What the preview says of a free listing. */
  freeNote?: string | null
  /** Said next to the total of an ad in categories priced apart: the highest of their prices applies. */
  priceNote?: string | null
  card: CustomerCardData
  cost: string
  /** Upload progress (0–1) while the approval is sent; null otherwise. */
  progress: number | null
  photoFileName: string
  videoFileName: string
  onApprove: () => void
  onReject: () => void
  /** Replaces "Approve Your Ad - $cost" (an edit after payment is sent for review, not paid for). */
  approveLabel?: string
}) {
  return (
    <ModalBackdrop zIndex="z-40">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="preview-heading"
        data-nested-dialog
        className="mx-auto max-w-3xl rounded-2xl bg-white p-6 shadow-xl"
      >
        <h2 id="preview-heading" className="text-2xl font-bold">
          Preview Your Ad - Customer View
        </h2>
        <p className="mt-2 text-lg font-semibold">Total Cost: ${cost}</p>
        {freeNote ? <p className="mt-1 text-slate-700">{freeNote}</p> : null}
        {priceNote ? (
          <p className="mt-1 text-sm text-slate-700" data-testid="highest-price-note">
            {priceNote}
          </p>
        ) : null}
        {progress !== null ? (
          <div className="mt-3">
            <label htmlFor="upload-progress" className="text-sm">
              Uploading...
            </label>
            <progress id="upload-progress" max={1} value={progress} className="w-full" />
          </div>
        ) : null}
        <CustomerEventCard
          className="mt-4"
          event={card}
          mode="preview"
          cost={cost}
          media={{ photoFileName: photoFileName || undefined, videoFileName: videoFileName || undefined }}
          approve={{ onClick: onApprove, disabled: progress !== null, label: approveLabel }}
          reject={{ onClick: onReject }}
        />
      </div>
    </ModalBackdrop>
  )
}
