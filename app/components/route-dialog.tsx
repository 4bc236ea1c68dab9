import { Link, useNavigate } from '@remix-run/react'
import { useEffect, type ReactNode } from 'react'
import { ModalBackdrop } from './modal-backdrop.tsx'

/**
 * A child route shown as a dialog over its parent page. The URL is a real page, so without JavaScript it opens
 * and works the same; with it, Escape closes the dialog.
 */
export function RouteDialog({
  labelledBy,
  closeTo,
  children,
}: {
  labelledBy: string
  closeTo: string
  children: ReactNode
}) {
  const navigate = useNavigate()
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape' && !document.querySelector('[data-nested-dialog]')) navigate(closeTo)
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [closeTo, navigate])

  return (
    <ModalBackdrop zIndex="z-30">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        className="relative mx-auto max-w-5xl rounded-2xl bg-white p-5 shadow-xl sm:p-8"
      >
        <Link
          to={closeTo}
          className="absolute top-4 right-4 rounded-md px-2 py-1 text-sm font-medium text-slate-600 underline hover:text-slate-900"
        >
          Close
        </Link>
        {children}
      </div>
    </ModalBackdrop>
  )
}
