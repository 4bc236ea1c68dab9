import { createRequire } from 'node:module'
import * as esmRouter from '@remix-run/router'
import { describe, expect, test } from 'vitest'

/**
 * The route-matching package is patched (patches/, applied by `npm install`): it flattens and ranks a routes array
 * once, not on every request. The server loads its CommonJS build, the browser bundle its ES module build.
 */
const builds = {
  'CommonJS (server)': createRequire(import.meta.url)('@remix-run/router') as typeof esmRouter,
  'ES module (browser bundle)': esmRouter,
}

/** A route whose `children` reads are counted: flattening a routes array reads every route's children. */
function countingRoute(route: esmRouter.AgnosticRouteObject, reads: { count: number }) {
  const { children, ...rest } = route as esmRouter.AgnosticRouteObject & { children?: unknown }
  return Object.defineProperty(rest, 'children', {
    get: () => {
      reads.count++
      return children
    },
    enumerable: true,
  }) as esmRouter.AgnosticRouteObject
}

describe.each(Object.entries(builds))('route matching, %s build', (_name, router) => {
  test('matching the same routes array again does not flatten it again', () => {
    const reads = { count: 0 }
    const routes = [
      countingRoute(
        {
          id: 'root',
          path: '/',
          children: [
            { id: 'index', index: true },
            { id: 'event', path: 'event/:id' },
            { id: 'calendar', path: 'calendar' },
          ],
        },
        reads,
      ),
    ]
    expect(router.matchRoutes(routes, '/event/7')?.at(-1)?.params).toEqual({ id: '7' })
    const afterFirst = reads.count
    expect(afterFirst).toBeGreaterThan(0)
    expect(router.matchRoutes(routes, '/calendar')?.at(-1)?.route.id).toBe('calendar')
    expect(router.matchRoutes(routes, '/')?.at(-1)?.route.id).toBe('index')
    expect(reads.count).toBe(afterFirst)
    // Another array is flattened on its own.
    expect(router.matchRoutes([...routes], '/event/8')?.at(-1)?.params).toEqual({ id: '8' })
    expect(reads.count).toBeGreaterThan(afterFirst)
  })

  test('routes patched in later (lazy route discovery) are matched', () => {
    const app = router.createRouter({
      routes: [{ id: 'root', path: '/', children: [{ id: 'home', index: true }] }],
      history: router.createMemoryHistory(),
    })
    expect(router.matchRoutes(app.routes, '/late')).toBeNull()
    app.patchRoutes('root', [{ id: 'late', path: 'late' }])
    expect(router.matchRoutes(app.routes, '/late')?.at(-1)?.route.id).toBe('late')
    app.dispose()
  })
})
