/** Before paying: whether the ad goes live at payment (a trusted business) or after an administrator's review. */
export function GoLiveNotice({ atPayment }: { atPayment: boolean }) {
  return (
    <p className="mx-auto mb-4 max-w-md text-center text-sm text-slate-700" data-testid="go-live-notice">
      {atPayment
        ? 'Your business is trusted: this ad goes live as soon as it is paid (now and then one is checked by an administrator first).'
        : 'This ad goes live once an administrator has approved it.'}
    </p>
  )
}
