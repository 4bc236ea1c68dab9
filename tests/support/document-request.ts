import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { UNSAFE_RemixContext as RemixContext, type UNSAFE_RemixContextObject } from '@remix-run/react'
import { matchRoutes, type StaticHandlerContext } from '@remix-run/router'
import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom/server'
import { CookieJar } from './cookie-jar.ts'

const BASE = 'http://localhost'
const MAX_REDIRECTS = 5

/** A route module as a document request needs it: its URL pattern, loader, action and, to draw it, its components. */
export interface PageRoute {
  /** The pattern of its URL, as Remix reads the file name: `/event/:id/report`. */
  path: string
  loader?: (args: LoaderFunctionArgs) => unknown
  action?: (args: ActionFunctionArgs) => unknown
  default?: ComponentType
  ErrorBoundary?: ComponentType
}

/** One answer a browser without JavaScript got: a redirect, or the page with what its loader and action gave. */
export interface PageAnswer {
  url: string
  status: number
  /** Where a redirect sends the browser; null for a page. */
  location: string | null
  /** The redirect itself (the cookies it sets, a toast); null for a page. */
  response: Response | null
  loaderData: unknown
  actionData: unknown
  /** What the page's error boundary shows (a thrown 404 and its data), or null. */
  error: unknown
  /** The page drawn as the server draws it (its route's components only), when the route gave them; else ''. */
  html: string
}

function drawn(
  routes: PageRoute[],
  dataRoutes: Parameters<typeof createStaticRouter>[0],
  context: StaticHandlerContext,
) {
  if (!routes.some((route) => route.default)) return ''
  const remixContext: UNSAFE_RemixContextObject = {
    future: {} as UNSAFE_RemixContextObject['future'],
    manifest: { routes: {}, entry: { imports: [], module: '' }, url: '', version: '' },
    routeModules: {},
    isSpaMode: false,
  }
  routes.forEach((route, index) => {
    const id = `route-${index}`
    remixContext.manifest.routes[id] = {
      id,
      path: route.path,
      hasAction: Boolean(route.action),
      hasLoader: Boolean(route.loader),
      hasClientAction: false,
      hasClientLoader: false,
      hasErrorBoundary: Boolean(route.ErrorBoundary),
      module: '',
    }
    remixContext.routeModules[id] = { default: route.default, ErrorBoundary: route.ErrorBoundary } as never
  })
  const router = createStaticRouter(dataRoutes, context)
  return renderToString(
    createElement(
      RemixContext.Provider,
      { value: remixContext },
      createElement(StaticRouterProvider, { router, context, hydrate: false }),
    ),
  )
}

/**
 * A browser without JavaScript at `path`: the request answered as Remix answers a document request (a post runs the
 * action, then the page's loader with GET), and each redirect followed with GET as a browser does, carrying the
 * cookies set on the way, while it leads to one of `routes`. Returns every answer in order; the last is what the
 * browser shows (or a redirect to a page outside `routes`).
 */
export async function browse(routes: PageRoute[], path: string, init: RequestInit = {}) {
  const handler = createStaticHandler(
    routes.map((route, index) => ({
      id: `route-${index}`,
      path: route.path,
      loader: route.loader as never,
      action: route.action as never,
      Component: route.default,
      ErrorBoundary: route.ErrorBoundary,
    })),
  )
  const sent = new Headers(init.headers)
  const jar = new CookieJar(sent.get('Cookie') ?? undefined)
  sent.delete('Content-Type')
  sent.delete('Content-Length')
  const answers: PageAnswer[] = []
  let request = new Request(new URL(path, BASE), init)
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const url = request.url.slice(BASE.length)
    const context = await handler.query(request)
    if (context instanceof Response) {
      jar.store(context)
      const location = context.headers.get('Location')
      answers.push({
        url,
        status: context.status,
        location,
        response: context,
        loaderData: null,
        actionData: null,
        error: null,
        html: '',
      })
      if (!location || !matchRoutes(handler.dataRoutes, new URL(location, BASE).pathname)) return answers
      const headers = new Headers(sent)
      headers.set('Cookie', jar.header())
      request = new Request(new URL(location, BASE), { headers })
      continue
    }
    const id = context.matches.at(-1)?.route.id ?? ''
    answers.push({
      url,
      status: context.statusCode,
      location: null,
      response: null,
      loaderData: context.loaderData[id] ?? null,
      actionData: context.actionData?.[id] ?? null,
      error: context.errors?.[id] ?? null,
      html: drawn(routes, handler.dataRoutes, context),
    })
    return answers
  }
  throw new Error(`More than ${MAX_REDIRECTS} redirects from ${path}`)
}

/** What the browser shows at the end of {@link browse}. */
export async function shownAfter(...args: Parameters<typeof browse>) {
  return (await browse(...args)).at(-1)!
}

/** The visible text of some HTML, whitespace collapsed and the common entities read. */
export function textOf(html: string) {
  return html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()
}
