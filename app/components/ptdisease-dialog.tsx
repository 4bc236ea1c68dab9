import { Link, useNavigate } from '@remix-run/react'
import { useEffect, useId, type ReactNode } from 'react'
import { ModalBackdrop } from '#app/components/modal-backdrop.tsx'

/**
 * A child route shown as a dialog over the list. The same markup is the whole page without JavaScript;
 * with it, Escape and a click outside close the dialog and the list behind stays out of the tab order.
 */
export function PtdiseaseDialog({
  title,
  closeTo,
  children,
  size = 'large',
}: {
  title: string
  closeTo: string
  children: ReactNode
  size?: 'large' | 'small'
}) {
  const navigate = useNavigate()
  const titleId = useId()

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape' && !event.defaultPrevented) navigate(closeTo, { preventScrollReset: true })
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [closeTo, navigate])

  return (
    <ModalBackdrop zIndex="z-40" onBackdropClick={() => navigate(closeTo, { preventScrollReset: true })}>
      <dialog
        open
        aria-modal="true"
        aria-labelledby={titleId}
        className={`static mx-auto block w-full rounded-xl bg-white p-6 text-slate-900 shadow-xl ${
          size === 'large' ? 'max-w-3xl' : 'max-w-md'
        }`}
      >
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-2xl font-bold text-ink">
            {title}
          </h2>
          <Link
            to={closeTo}
            preventScrollReset
            className="rounded px-2 py-1 text-sm font-medium text-slate-600 underline hover:text-slate-900"
          >
            Close
          </Link>
        </div>
        {children}
      </dialog>
    </ModalBackdrop>
  )
}
