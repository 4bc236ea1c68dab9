import type { ServerBuild } from '@remix-run/node'
import { describe, expect, test } from 'vitest'
import { loggedError, withoutEmails } from '#app/services/platform/logger.server.ts'
import { requestIdFor, routePatterns } from '#app/services/http/request-log.server.ts'

/** The shape of the build's route table, for a few routes like the app's. */
function routes(...defs: Array<{ id: string; parentId?: string; path?: string; index?: boolean }>) {
  return Object.fromEntries(
    defs.map((def) => [def.id, { module: {}, ...def }]),
  ) as unknown as ServerBuild['routes']
}

describe('routePatterns', () => {
  const routeOf = routePatterns(
    routes(
      { id: 'root', path: '' },
      { id: 'routes/_index', parentId: 'root', index: true },
      { id: 'routes/event.$id', parentId: 'root', path: 'event/:id' },
      { id: 'routes/dashboard', parentId: 'root', path: 'dashboard' },
      { id: 'routes/dashboard.events.$id.edit', parentId: 'routes/dashboard', path: 'events/:id/edit' },
      { id: 'routes/calendar[.]ics', parentId: 'root', path: 'calendar.ics' },
      { id: 'routes/$', parentId: 'root', path: '*' },
    ),
  )

  test('a path is named by its route’s pattern, nested routes joined', () => {
    expect(routeOf('/event/42')).toBe('/event/:id')
    expect(routeOf('/event/43')).toBe('/event/:id')
    expect(routeOf('/dashboard/events/7/edit')).toBe('/dashboard/events/:id/edit')
    expect(routeOf('/calendar.ics')).toBe('/calendar.ics')
    expect(routeOf('/')).toBe('/')
  })

  test('single-fetch data requests are named by their page', () => {
    expect(routeOf('/event/42.data')).toBe('/event/:id')
    expect(routeOf('/_root.data')).toBe('/')
  })

  test('what only the catch-all answers, and broken encodings, are "unmatched"', () => {
    expect(routeOf('/wp-admin/install.php')).toBe('unmatched')
    expect(routeOf('/%c0')).toBe('unmatched')
  })
})

describe('requestIdFor', () => {
  test('a sane id from a trusted proxy is kept; otherwise a new UUID', () => {
    expect(requestIdFor('abc-123', true)).toBe('abc-123')
    expect(requestIdFor('abc-123', false)).not.toBe('abc-123')
    for (const bad of ['a'.repeat(129), 'a b', 'a\nb', 'x@example.com', '', undefined, ['a', 'b']])
      expect(requestIdFor(bad, true)).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('loggedError', () => {
  test('type, message, stack and code; no other field of a database error; no email addresses', () => {
    const error = Object.assign(new Error('duplicate key for jane@example.com'), {
      code: '23505',
      detail: 'Key (email)=(jane@example.com) already exists.',
      parameters: ['jane@example.com', 'hunter2'],
    })
    const logged = loggedError(error)
    expect(logged).toMatchObject({ type: 'Error', code: '23505', message: 'duplicate key for [email]' })
    expect(logged.stack).toMatch(/^Error: duplicate key for \[email\]\n\s+at /)
    expect(JSON.stringify(logged)).not.toMatch(/jane|hunter2|detail|parameters/)
  })

  test('a thrown response keeps its status only; anything else its text', () => {
    expect(loggedError({ status: 503, statusText: 'Service Unavailable', data: { email: 'x' } })).toEqual({
      type: 'ErrorResponse',
      status: 503,
      message: 'Service Unavailable',
    })
    expect(loggedError('boom')).toEqual({ type: 'string', message: 'boom' })
  })

  test('withoutEmails leaves text without addresses as it is', () => {
    expect(withoutEmails('/event/42')).toBe('/event/42')
    expect(withoutEmails('/u/a.b+c@mail.example.org/x')).toBe('/u/[email]/x')
    expect(withoutEmails('/u/jane%40example.com')).toBe('/u/[email]')
  })
})
