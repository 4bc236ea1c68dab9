import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type * as Router from '@remix-run/router'
import { describe, expect, test } from 'vitest'

/**
 * The route-matching package is patched (patches/, applied by `npm install`): it flattens and ranks a routes array
 * once, not on every request, compiles each route pattern to its regular expression once, and does not try the
 * branches whose first segment is fixed text other than the pathname's. The server loads its CommonJS build, the browser bundle its ES module build.
 */
const require = createRequire(import.meta.url)
/** Node would load the package's CommonJS build for both: the ES module build is loaded from a copy as a module. */
async function esModuleBuild() {
  const source = path.join(path.dirname(require.resolve('@remix-run/router')), 'router.js')
  const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'router-esm-')), 'router.mjs')
  fs.writeFileSync(copy, fs.readFileSync(source, 'utf8').replace(/^\/\/# sourceMappingURL=.*$/m, ''))
  return (await import(pathToFileURL(copy).href)) as typeof Router
}
const builds = {
  'CommonJS (server)': require('@remix-run/router') as typeof Router,
  'ES module (browser bundle)': await esModuleBuild(),
}

/** A route whose `children` reads are counted: flattening a routes array reads every route's children. */
function countingRoute(route: Router.AgnosticRouteObject, reads: { count: number }) {
  const { children, ...rest } = route as Router.AgnosticRouteObject & { children?: unknown }
  return Object.defineProperty(rest, 'children', {
    get: () => {
      reads.count++
      return children
    },
    enumerable: true,
  }) as Router.AgnosticRouteObject
}

describe.each(Object.entries(builds))('route matching, %s build', (name, router) => {
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

  test('matching a path again builds no regular expression', () => {
    // Patterns no other test has matched, so the first match compiles them.
    const prefix = `/compiled-${name.split(' ')[0]!.toLowerCase()}`
    const routes = [
      {
        id: 'root',
        path: prefix,
        children: [
          { id: 'event', path: 'event/:id' },
          { id: 'calendar', path: 'calendar' },
        ],
      },
    ]
    const OriginalRegExp = globalThis.RegExp
    let built = 0
    const counting = new Proxy(OriginalRegExp, {
      construct(target, args: [string, string?]) {
        built++
        return new target(...args)
      },
    })
    globalThis.RegExp = counting
    try {
      expect(router.matchRoutes(routes, `${prefix}/calendar`)?.at(-1)?.route.id).toBe('calendar')
      expect(router.matchRoutes(routes, `${prefix}/event/8`)?.at(-1)?.params).toEqual({ id: '8' })
      expect(built).toBeGreaterThan(0)
      built = 0
      expect(router.matchRoutes([...routes], `${prefix}/calendar`)?.at(-1)?.route.id).toBe('calendar')
      expect(router.matchRoutes([...routes], `${prefix}/event/9`)?.at(-1)?.params).toEqual({ id: '9' })
      expect(built).toBe(0)
    } finally {
      globalThis.RegExp = OriginalRegExp
    }
  })

  test('a branch that starts with other fixed text is not tried', () => {
    const tag = name.split(' ')[0]!.toLowerCase()
    // Fixed paths rank before a parameter: unpatched, each would be compiled and tried before event/:id.
    const others = Array.from({ length: 20 }, (_, i) => ({
      id: `other-${i}`,
      path: `other-${tag}-${i}/list`,
    }))
    const routes = [
      { id: 'root', path: '', children: [...others, { id: 'event', path: `event-${tag}/:id` }] },
    ]
    const OriginalRegExp = globalThis.RegExp
    let built = 0
    globalThis.RegExp = new Proxy(OriginalRegExp, {
      construct(target, args: [string, string?]) {
        built++
        return new target(...args)
      },
    })
    try {
      expect(router.matchRoutes(routes, `/event-${tag}/7`)?.at(-1)?.params).toEqual({ id: '7' })
      expect(built).toBeLessThanOrEqual(2)
      expect(router.matchRoutes(routes, `/OTHER-${tag}-3/list`)?.at(-1)?.route.id).toBe('other-3')
    } finally {
      globalThis.RegExp = OriginalRegExp
    }
  })

  // What the unpatched package answers for each pathname: the skipped branches change none of it.
  const routeTree = () => [
    {
      id: 'root',
      path: '',
      children: [
        { id: 'home', index: true },
        { id: 'event', path: 'event/:id' },
        { id: 'event-ics', path: 'event/:id/calendar.ics' },
        { id: 'calendar', path: 'calendar' },
        { id: 'admin', path: 'Admin', caseSensitive: true },
        { id: 'about', path: ':lang?/about' },
        { id: 'docs', path: 'docs?/intro' },
        { id: 'files', path: 'files/*' },
        { id: 'cafe', path: 'café' },
        { id: 'layout', children: [{ id: 'login', path: 'login' }] },
        { id: 'slug', path: ':slug' },
        { id: 'splat', path: '*' },
      ],
    },
  ]
  test.each([
    ['/', 'home', {}],
    ['/EVENT/7', 'event', { id: '7' }],
    ['/Event/7/', 'event', { id: '7' }],
    ['/%65vent/7', 'event', { id: '7' }],
    ['/event/7/CALENDAR.ICS', 'event-ics', { id: '7' }],
    ['/Calendar/', 'calendar', {}],
    ['/calendar//', 'calendar', {}],
    ['//calendar', 'splat', { '*': '/calendar' }],
    ['/Admin', 'admin', {}],
    ['/admin', 'slug', { slug: 'admin' }],
    ['/about', 'about', {}],
    ['/fr/about', 'about', { lang: 'fr' }],
    ['/intro', 'docs', {}],
    ['/DOCS/intro', 'docs', {}],
    ['/files/a/b', 'files', { '*': 'a/b' }],
    ['/caf%C3%A9', 'cafe', {}],
    ['/CAFÉ', 'cafe', {}],
    ['/LOGIN', 'login', {}],
    ['/events', 'slug', { slug: 'events' }],
    ['/eventx/1', 'splat', { '*': 'eventx/1' }],
    ['/K', 'slug', { slug: 'K' }],
  ])('%s matches %s', (pathname, id, params) => {
    const matches = router.matchRoutes(routeTree(), pathname)
    expect(matches?.at(-1)?.route.id).toBe(id)
    expect(matches?.at(-1)?.params).toEqual(params)
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
