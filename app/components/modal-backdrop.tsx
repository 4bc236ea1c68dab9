import type { MouseEventHandler, ReactNode } from 'react'

/**
 * The dimmed layer under every dialog. Its scrolling area stops short of the bottom band where toasts appear
 * (toaster.tsx), so a toast shown while a dialog is open lies over the backdrop and never over a dialog control.
 */
export function ModalBackdrop({
  zIndex,
  onBackdropClick,
  children,
}: {
  zIndex: 'z-30' | 'z-40'
  /** Called for clicks on the backdrop itself, not on the dialog. */
  onBackdropClick?: () => void
  children: ReactNode
}) {
  const onClick: MouseEventHandler<HTMLDivElement> | undefined = onBackdropClick
    ? (event) => {
        if (event.target === event.currentTarget) onBackdropClick()
      }
    : undefined
  return (
    <div className={`fixed inset-0 ${zIndex} bg-slate-900/50`} onClick={onClick}>
      <div
        data-modal-scroller
        className="absolute inset-x-0 top-0 bottom-toast-band overflow-y-auto px-2 py-6 sm:px-4"
        onClick={onClick}
      >
        {children}
      </div>
    </div>
  )
}
