import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from '@remix-run/react'
import type { ReactNode } from 'react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { useNonce } from '#app/components/nonce.tsx'
import { SiteFooter, SiteHeader } from '#app/components/site-chrome.tsx'
import { Toaster } from '#app/components/toaster.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { MEDIA_FALLBACK_SCRIPT } from '#app/utils/media-fallback.ts'
import { getViewer } from '#app/services/http/viewer.server.ts'
import { getToast } from '#app/services/http/toast.server.ts'
import stylesheet from '#app/tailwind.css?url'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export const meta: MetaFunction = () => [{ title: PRODUCT_NAME }]

export async function loader({ request }: LoaderFunctionArgs) {
  const [{ toast, headers }, viewer] = await Promise.all([getToast(request), getViewer(request)])
  return data({ toast, viewer }, { headers: headers ?? undefined })
}

/**
 * Routes that work as plain HTML export `handle = { hydrate: false }` and ship no JavaScript. A page for other sites
 * to frame (the embed) adds `chrome: false` (no site header, footer or toasts) and `frameable: true` (entry.server
 * lets any site frame it).
 */
export interface RouteHandle {
  hydrate?: boolean
  chrome?: boolean
  frameable?: boolean
}

/** The first stop of the keyboard on every page: past the site's header to the page itself. */
export const SKIP_LINK_TEXT = 'Skip to content'
const CONTENT_ID = 'content'

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce()
  const matches = useMatches()
  const hydrate = !matches.some((m) => (m.handle as RouteHandle | undefined)?.hydrate === false)
  const chrome = !matches.some((m) => (m.handle as RouteHandle | undefined)?.chrome === false)
  const rootData = useRouteLoaderData<typeof loader>('root')
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* The embed (no chrome) ships no script at all; a broken photo there leaves its letter showing. */}
        {chrome ? <script dangerouslySetInnerHTML={{ __html: MEDIA_FALLBACK_SCRIPT }} /> : null}
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-full flex-col bg-white text-slate-900 antialiased">
        {chrome ? (
          <>
            <a
              href={`#${CONTENT_ID}`}
              className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:font-semibold focus:text-ink focus:ring-2 focus:ring-brand-600"
            >
              {SKIP_LINK_TEXT}
            </a>
            <SiteHeader viewer={rootData?.viewer ?? null} />
            <div id={CONTENT_ID} tabIndex={-1} className="flex-1 focus:outline-none">
              {children}
            </div>
            <SiteFooter />
            <Toaster serverToast={rootData?.toast ?? null} />
          </>
        ) : (
          children
        )}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  )
}

export default function App() {
  return <Outlet />
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
