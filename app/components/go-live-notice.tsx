/**
 * Before paying for an ad, or sending the edit of a live one: whether it goes live at once (a trusted business) or
 * after an administrator's review.
 */
export function GoLiveNotice({ atOnce, edit = false }: { atOnce: boolean; edit?: boolean }) {
  return (
    <p className="mx-auto mb-4 max-w-md text-center text-sm text-slate-700" data-testid="go-live-notice">
      {goLiveText(atOnce, edit)}
    </p>
  )
}

export function goLiveText(atOnce: boolean, edit = false) {
  if (edit)
    return atOnce
      ? 'Your business is trusted: these changes go live as soon as they are sent (now and then an administrator checks some afterwards).'
      : 'These changes go live once an administrator has approved them.'
  return atOnce
    ? 'Your business is trusted: this ad goes live as soon as it is paid (now and then an administrator checks one afterwards).'
    : 'This ad goes live once an administrator has approved it.'
}
