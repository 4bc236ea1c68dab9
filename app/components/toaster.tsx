import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import {
  TOAST_CLOSE_LABEL,
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY_MS,
  TOAST_SWIPE_THRESHOLD_PX,
  type ToastVariant,
} from '#app/constants.ts'

export interface ToastData {
  id: string
  title?: string
  description?: string
  variant?: ToastVariant
}

interface ToastItem extends ToastData {
  open: boolean
}

type Action =
  | { type: 'add'; toast: ToastItem }
  | { type: 'update'; toast: Partial<ToastData> & { id: string } }
  | { type: 'dismiss'; id?: string }
  | { type: 'remove'; id?: string }

/** The toast store: add, update, dismiss (marked closed), remove 2000 ms after dismissal; one visible at a time. */
export function reduceToasts(state: ToastItem[], action: Action): ToastItem[] {
  switch (action.type) {
    case 'add':
      return [action.toast, ...state.filter((t) => t.id !== action.toast.id)].slice(0, TOAST_LIMIT)
    case 'update':
      return state.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t))
    case 'dismiss':
      return state.map((t) => (action.id === undefined || t.id === action.id ? { ...t, open: false } : t))
    case 'remove':
      return action.id === undefined ? [] : state.filter((t) => t.id !== action.id)
  }
}

let toasts: ToastItem[] = []
const listeners = new Set<() => void>()
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>()

function dispatch(action: Action) {
  toasts = reduceToasts(toasts, action)
  if (action.type === 'dismiss') {
    for (const t of toasts) {
      if (t.open || removeTimers.has(t.id)) continue
      removeTimers.set(
        t.id,
        setTimeout(() => {
          removeTimers.delete(t.id)
          dispatch({ type: 'remove', id: t.id })
        }, TOAST_REMOVE_DELAY_MS),
      )
    }
  }
  listeners.forEach((listener) => listener())
}

let counter = 0

/** Shows a toast from the browser (validation messages, results of fetches). */
export function toast(input: Omit<ToastData, 'id'> & { id?: string }) {
  const id = input.id ?? `client-${++counter}`
  dispatch({ type: 'add', toast: { variant: 'default', ...input, id, open: true } })
  return {
    id,
    dismiss: () => dispatch({ type: 'dismiss', id }),
    update: (next: Omit<ToastData, 'id'>) => dispatch({ type: 'update', toast: { ...next, id } }),
  }
}

export function currentToasts(): readonly ToastItem[] {
  return toasts
}

export function dismissToast(id?: string) {
  dispatch({ type: 'dismiss', id })
}

const NO_TOASTS: ToastItem[] = []
const getServerToasts = () => NO_TOASTS

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Renders the server's flash toast in the HTML (works without JavaScript) and every client toast after. */
export function Toaster({ serverToast }: { serverToast: ToastData | null }) {
  const items = useSyncExternalStore(subscribe, () => toasts, getServerToasts)
  const [hydrated, setHydrated] = useState(false)
  const viewport = useRef<HTMLOListElement>(null)

  useEffect(() => setHydrated(true), [])
  useEffect(() => {
    if (serverToast) toast(serverToast)
  }, [serverToast])
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if ((TOAST_HOTKEY as readonly string[]).includes(event.key)) viewport.current?.focus()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])

  const visible: ToastItem[] = hydrated ? items : serverToast ? [{ ...serverToast, open: true }] : []

  // Bottom of the screen: the site header is at the top, and dialogs end above the bottom band (modal-backdrop.tsx).
  return (
    <section aria-label={`Notifications (${TOAST_HOTKEY.join('+')})`}>
      <ol
        ref={viewport}
        tabIndex={-1}
        className="pointer-events-none fixed right-0 bottom-0 z-50 flex max-h-screen w-full flex-col gap-2 p-4 outline-none sm:max-w-sm"
      >
        {visible.map((item) => (
          <ToastCard key={item.id} item={item} hydrated={hydrated} />
        ))}
      </ol>
    </section>
  )
}

function ToastCard({ item, hydrated }: { item: ToastItem; hydrated: boolean }) {
  const [offset, setOffset] = useState(0)
  const start = useRef<number | null>(null)
  const [paused, setPaused] = useState(false)

  useEffect(() => {
    if (!item.open || paused) return
    const timer = setTimeout(() => dismissToast(item.id), TOAST_DURATION_MS)
    return () => clearTimeout(timer)
  }, [item.id, item.open, paused])

  const destructive = item.variant === 'destructive'
  const dismissId = `toast-dismiss-${item.id}`
  return (
    <li
      data-state={item.open ? 'open' : 'closed'}
      data-variant={item.variant ?? 'default'}
      data-testid="toast"
      hidden={!item.open}
      className={`pointer-events-auto ${hydrated ? '' : 'toast-auto-hide'}`}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onPointerDown={(e) => {
        start.current = e.clientX
      }}
      onPointerMove={(e) => {
        if (start.current !== null) setOffset(Math.max(0, e.clientX - start.current))
      }}
      onPointerUp={() => {
        if (offset > TOAST_SWIPE_THRESHOLD_PX) dismissToast(item.id)
        start.current = null
        setOffset(0)
      }}
      onPointerCancel={() => {
        start.current = null
        setOffset(0)
      }}
      style={offset ? { transform: `translateX(${offset}px)` } : undefined}
    >
      {/* Before JavaScript runs, a checkbox and its label dismiss the toast with CSS alone. */}
      {hydrated ? null : <input type="checkbox" id={dismissId} className="peer sr-only" />}
      {/* The role is the card's, not the list item's: an item with a role of its own is no longer an item of the list. */}
      <div
        role={destructive ? 'alert' : 'status'}
        aria-live={destructive ? 'assertive' : 'polite'}
        className={`relative grid gap-1 rounded-lg border p-4 pr-24 shadow-lg peer-checked:hidden ${
          destructive ? 'border-red-700 bg-red-600 text-white' : 'border-slate-200 bg-white text-slate-900'
        }`}
      >
        {item.title ? <p className="text-sm font-semibold">{item.title}</p> : null}
        {item.description ? <p className="line-clamp-3 text-sm opacity-90">{item.description}</p> : null}
        {hydrated ? (
          <button
            type="button"
            onClick={() => dismissToast(item.id)}
            className="absolute top-3 right-3 rounded px-2 py-1 text-xs font-medium underline"
          >
            {TOAST_CLOSE_LABEL}
          </button>
        ) : (
          <label
            htmlFor={dismissId}
            className="absolute top-3 right-3 cursor-pointer rounded px-2 py-1 text-xs font-medium underline [.peer:focus-visible~div_&]:outline-2 [.peer:focus-visible~div_&]:outline-current"
          >
            {TOAST_CLOSE_LABEL}
          </label>
        )}
      </div>
    </li>
  )
}
