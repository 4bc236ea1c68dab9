import { createRequire } from 'node:module'
import { createStaticHandler, type StaticHandlerContext } from '@remix-run/router'
import { renderToString } from 'react-dom/server'
import { describe, expect, test } from 'vitest'

/**
 * The server's rendering packages are patched (patches/, applied by `npm install`): the server routes are built once
 * per build, not on every request, and the static router keeps the data routes of a routes array, so the router's
 * own cache of flattened branches (route-matching.test.ts) holds across requests.
 */
const require = createRequire(import.meta.url)
type StaticServer = typeof import('react-router-dom/server')
const staticServers: Array<[string, StaticServer]> = [
  ['CommonJS (server)', require('react-router-dom/server') as StaticServer],
  ['ES module', (await import('react-router-dom/server.mjs' as string)) as StaticServer],
]
/** The server loads the CommonJS build (the package has no `exports`, so Node takes `main`). */
const { RemixServer } = require('@remix-run/react') as typeof import('@remix-run/react')

const appRoutes = [{ id: 'root', path: '/', children: [{ id: 'routes/calendar', path: 'calendar' }] }]

async function handlerContext(url: string) {
  const context = await createStaticHandler(appRoutes).query(new Request(url))
  if (context instanceof Response) throw new Error('Expected a handler context')
  return context
}

describe.each(staticServers)('the static router, %s build', (_name, server) => {
  test('the same routes give the same data routes on every request; other routes their own', async () => {
    const first = server.createStaticRouter(appRoutes, await handlerContext('http://app.test/calendar'))
    const second = server.createStaticRouter(appRoutes, await handlerContext('http://app.test/'))
    expect(second.routes).toBe(first.routes)
    // Each request still gets its own state.
    expect(first.state.location.pathname).toBe('/calendar')
    expect(second.state.location.pathname).toBe('/')
    expect(second.state.matches.at(-1)?.route.id).toBe('root')
    const other = server.createStaticRouter([...appRoutes], await handlerContext('http://app.test/calendar'))
    expect(other.routes).not.toBe(first.routes)
    expect(other.state.matches.at(-1)?.route.id).toBe('routes/calendar')
  })
})

const manifestRoutes = {
  root: { id: 'root', path: '/', module: '/root.js', hasAction: false, hasLoader: false },
  'routes/calendar': {
    id: 'routes/calendar',
    parentId: 'root',
    path: 'calendar',
    module: '/calendar.js',
    hasAction: false,
    hasLoader: false,
  },
}

/** A route module whose `handle` reads are counted: building the server routes reads every module's handle. */
function countingModule(text: string, reads: { count: number }) {
  return {
    default: () => <p>{text}</p>,
    get handle() {
      reads.count++
      return undefined
    },
  }
}

/** What the server runtime gives RemixServer for one request: a fresh routeModules object over the same modules. */
function entryContext(
  modules: Record<string, unknown>,
  staticHandlerContext: StaticHandlerContext,
  routes = manifestRoutes,
) {
  return {
    manifest: { routes, entry: { module: '/entry.js', imports: [] }, url: '/manifest.js', version: '1' },
    routeModules: { ...modules },
    staticHandlerContext,
    future: {},
    isSpaMode: false,
    serializeError: (error: Error) => ({ message: error.message }),
    renderMeta: {},
  } as unknown as Parameters<typeof RemixServer>[0]['context']
}

describe('RemixServer', () => {
  test('builds the server routes once for a build, not for every request', async () => {
    const reads = { count: 0 }
    const modules = {
      root: countingModule('root', reads),
      'routes/calendar': countingModule('calendar', reads),
    }
    const render = async (url: string, routes = manifestRoutes) =>
      renderToString(
        <RemixServer context={entryContext(modules, await handlerContext(url), routes)} url={url} />,
      )

    expect(await render('http://app.test/calendar')).toContain('root')
    const afterFirst = reads.count
    expect(afterFirst).toBeGreaterThan(0)
    expect(await render('http://app.test/')).toContain('root')
    expect(await render('http://app.test/calendar')).toContain('root')
    expect(reads.count).toBe(afterFirst)

    // Another build (a new manifest) builds its own.
    await render('http://app.test/calendar', { ...manifestRoutes })
    expect(reads.count).toBeGreaterThan(afterFirst)
  })

  test('a route module that changed (a rebuilt route) is not rendered from the old routes', async () => {
    const reads = { count: 0 }
    const routes = { ...manifestRoutes }
    const before = { root: countingModule('before', reads), 'routes/calendar': countingModule('x', reads) }
    const after = { ...before, root: countingModule('after', reads) }
    const url = 'http://app.test/'
    expect(
      renderToString(
        <RemixServer context={entryContext(before, await handlerContext(url), routes)} url={url} />,
      ),
    ).toContain('before')
    expect(
      renderToString(
        <RemixServer context={entryContext(after, await handlerContext(url), routes)} url={url} />,
      ),
    ).toContain('after')
  })
})
