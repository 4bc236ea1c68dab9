import { Link } from '@remix-run/react'
import { PRODUCT_NAME, TAGLINE } from '#app/constants.ts'
import type { Viewer } from '#app/models/accounts/viewer.ts'

export function Logo({ className = '' }: { className?: string }) {
  return (
    <Link to="/landing" className={`flex items-center gap-2 font-bold tracking-tight ${className}`}>
      <span aria-hidden className="grid size-8 place-items-center rounded-full bg-brand-600 text-white">
        ES
      </span>
      <span>{PRODUCT_NAME}</span>
    </Link>
  )
}

/**
 * Logout is a POST (a plain form, so it works without JavaScript): a link or an image on another site can make a
 * browser GET /api/logout, but cannot post here (see request-guard.server.ts).
 */
export function LogoutButton({ className = '' }: { className?: string }) {
  return (
    <form method="post" action="/api/logout" className="inline">
      <button type="submit" className={className}>
        Logout
      </button>
    </form>
  )
}

export function SiteHeader({ viewer }: { viewer: Viewer | null }) {
  return (
    <header className="border-b border-slate-200 bg-white print:hidden">
      <nav className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <Logo className="text-lg text-ink" />
        <ul className="flex flex-wrap items-center gap-4 text-sm font-medium text-slate-700">
          <li>
            <Link to="/public" className="hover:text-brand-700">
              Events
            </Link>
          </li>
          <li>
            <Link to="/calendar" className="hover:text-brand-700">
              Calendar
            </Link>
          </li>
          {viewer?.roles.includes('admin') ? (
            <li>
              <Link to="/admin" className="hover:text-brand-700">
                Moderation
              </Link>
            </li>
          ) : null}
          {viewer?.roles.includes('clinician') ? (
            <li>
              <Link to="/patient-diseases" className="hover:text-brand-700">
                Patient records
              </Link>
            </li>
          ) : null}
          {viewer ? (
            <>
              {viewer.kind === 'business' ? (
                <li>
                  <Link to="/dashboard" className="hover:text-brand-700">
                    Dashboard
                  </Link>
                </li>
              ) : null}
              <li>
                <LogoutButton className="font-medium hover:text-brand-700" />
              </li>
            </>
          ) : (
            <li>
              <Link to="/login" className="rounded-md bg-brand-600 px-3 py-1.5 text-white hover:bg-brand-700">
                Advertiser sign in
              </Link>
            </li>
          )}
        </ul>
      </nav>
    </header>
  )
}

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-slate-50 print:hidden">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-6 text-sm text-slate-600">
        <p>
          <strong className="text-slate-800">{PRODUCT_NAME}</strong> — {TAGLINE}
        </p>
        <ul className="flex flex-wrap gap-4">
          <li>
            <Link to="/landing">About</Link>
          </li>
          <li>
            <Link to="/public">Public events</Link>
          </li>
          <li>
            <Link to="/calendar">Calendar</Link>
          </li>
          <li>
            <Link to="/create-account">Advertise with us</Link>
          </li>
          <li>
            <Link to="/terms">Terms</Link>
          </li>
        </ul>
      </div>
    </footer>
  )
}
