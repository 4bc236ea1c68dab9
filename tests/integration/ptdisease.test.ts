import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { UNSAFE_RemixContext as RemixContext, type UNSAFE_RemixContextObject } from '@remix-run/react'
import { eq, sql } from 'drizzle-orm'
import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom/server'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import {
  createPtdisease,
  listAuditEntries,
  PtdiseaseStoreError,
  type AuditActor,
} from '#app/models/patient-records/ptdisease.server.ts'
import { buildPtdiseaseSchema, PTDISEASE_PAGE_SIZE } from '#app/models/patient-records/ptdisease-schema.ts'
import * as api from '#app/routes/api.ptdisease.ts'
import * as apiOne from '#app/routes/api.ptdisease.$id.ts'
import * as deletePage from '#app/routes/patient-diseases.$id.delete.tsx'
import * as editPage from '#app/routes/patient-diseases.$id.edit.tsx'
import * as historyPage from '#app/routes/patient-diseases.$id.history.tsx'
import * as newPage from '#app/routes/patient-diseases.new.tsx'
import * as listPage from '#app/routes/patient-diseases.tsx'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { getToast } from '#app/services/http/toast.server.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness, insertUser } from '#db/factories.ts'
import { ptdisease, ptdiseaseAudit, type PtDisease, type User } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { textOf } from '#tests/support/document-request.ts'
import { expectConsoleError } from '#tests/support/fail-on-console-error.ts'
import { callRoute } from '#tests/support/routes.ts'

let clinician: User
let clinicianCookie: string
let adminCookie: string
let advertiserCookie: string
let noRoleCookie: string
let actor: AuditActor

beforeAll(async () => {
  clinician = await insertUser(db, { roles: ['clinician'] })
  const admin = await insertUser(db, { roles: ['admin'] })
  const noRole = await insertUser(db)
  clinicianCookie = await sessionCookieFor({ user: clinician })
  adminCookie = await sessionCookieFor({ user: admin })
  noRoleCookie = await sessionCookieFor({ user: noRole })
  advertiserCookie = await sessionCookieFor({ business: await insertBusiness(db) })
  actor = { id: clinician.id, email: clinician.email }
})

const schema = buildPtdiseaseSchema(platformToday)

/** A record straight through the model (fast set-up). */
async function seed(fields: Record<string, unknown>) {
  return createPtdisease(schema.parse({ mrn: 'MRN-SEED', disease: 'Hypertension', ...fields }), actor)
}

function form(fields: Record<string, string>) {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.set(k, v)
  return body
}

function post(
  handler: (args: ActionFunctionArgs) => unknown,
  path: string,
  fields: Record<string, string>,
  { cookie = clinicianCookie, params = {} }: { cookie?: string; params?: Record<string, string> } = {},
) {
  return callRoute(handler, path, { method: 'POST', body: form(fields), headers: { Cookie: cookie }, params })
}

function get(
  handler: (args: LoaderFunctionArgs) => unknown,
  path: string,
  { cookie = clinicianCookie, params = {} }: { cookie?: string; params?: Record<string, string> } = {},
) {
  return callRoute(handler, path, { headers: cookie ? { Cookie: cookie } : {}, params })
}

function apiCall(
  handler: (args: LoaderFunctionArgs) => unknown,
  path: string,
  {
    method = 'GET',
    body,
    cookie = clinicianCookie,
    params = {},
    contentType = 'application/json',
  }: {
    method?: string
    body?: unknown
    cookie?: string
    params?: Record<string, string>
    contentType?: string
  } = {},
) {
  const headers: Record<string, string> = {}
  if (cookie) headers.Cookie = cookie
  if (body !== undefined) headers['Content-Type'] = contentType
  return callRoute(handler, path, {
    method,
    headers,
    params,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
}

async function toastOf(response: Response) {
  const setCookie = response.headers.get('Set-Cookie') ?? ''
  const cookie = setCookie.split(';')[0] ?? ''
  return (await getToast(new Request('http://localhost/', { headers: { Cookie: cookie } }))).toast
}

async function findRecord(id: number) {
  const [row] = await db.select().from(ptdisease).where(eq(ptdisease.ptdiseaseID, id))
  return row ?? null
}

async function loaderData<T>(response: Response) {
  expect(response.status).toBe(200)
  return (await response.json()) as T
}

// ---------------------------------------------------------------------------------------------------------------
// Server-side rendering of the route components (what a browser without JavaScript gets)

type RouteModule = {
  default: ComponentType
  loader?: (args: LoaderFunctionArgs) => unknown
  action?: (args: ActionFunctionArgs) => unknown
}

const childRoutes: Array<[string, string, RouteModule]> = [
  ['routes/patient-diseases.new', 'new', newPage],
  ['routes/patient-diseases.$id.edit', ':id/edit', editPage],
  ['routes/patient-diseases.$id.delete', ':id/delete', deletePage],
  ['routes/patient-diseases.$id.history', ':id/history', historyPage],
]

/** Renders /patient-diseases (and a child route) to HTML the way the server does for a document request. */
async function renderPage(path: string, init: RequestInit = {}) {
  const toRoute = (id: string, path: string, module: RouteModule) => ({
    id,
    path,
    loader: module.loader as never,
    action: module.action as never,
    Component: module.default,
  })
  const routes = [
    {
      ...toRoute('routes/patient-diseases', '/patient-diseases', listPage),
      children: childRoutes.map(([id, childPath, module]) => toRoute(id, childPath, module)),
    },
  ]
  const remixContext: UNSAFE_RemixContextObject = {
    future: {} as UNSAFE_RemixContextObject['future'],
    manifest: { routes: {}, entry: { imports: [], module: '' }, url: '', version: '' },
    routeModules: {},
    isSpaMode: false,
  }
  for (const route of [routes[0]!, ...routes[0]!.children]) {
    remixContext.manifest.routes[route.id] = {
      id: route.id,
      path: route.path,
      parentId: route.id === 'routes/patient-diseases' ? undefined : 'routes/patient-diseases',
      hasAction: true,
      hasLoader: true,
      hasClientAction: false,
      hasClientLoader: false,
      hasErrorBoundary: false,
      module: '',
    }
    remixContext.routeModules[route.id] = { default: route.Component } as never
  }
  const handler = createStaticHandler(routes)
  const headers = new Headers(init.headers)
  if (!headers.has('Cookie')) headers.set('Cookie', clinicianCookie)
  const context = await handler.query(new Request(new URL(path, 'http://localhost'), { ...init, headers }))
  if (context instanceof Response) return { status: context.status, html: '', response: context }
  const router = createStaticRouter(handler.dataRoutes, context)
  const html = renderToString(
    createElement(
      RemixContext.Provider,
      { value: remixContext },
      createElement(StaticRouterProvider, { router, context, hydrate: false }),
    ),
  )
  return { status: context.statusCode, html, response: null }
}

/** The opening tag of the form control named `name`. */
function control(html: string, name: string) {
  const match = new RegExp(`<(?:input|select|textarea)[^>]*name="${name}"[^>]*>`).exec(html)
  expect(match, name).not.toBeNull()
  return match![0]
}

// ---------------------------------------------------------------------------------------------------------------

describe('who may see patient records', () => {
  const pages: Array<[string, RouteModule, string, Record<string, string>]> = [
    ['list', listPage, '/patient-diseases', {}],
    ['new', newPage, '/patient-diseases/new', {}],
    ['edit', editPage, '/patient-diseases/1/edit', { id: '1' }],
    ['delete', deletePage, '/patient-diseases/1/delete', { id: '1' }],
    ['history', historyPage, '/patient-diseases/1/history', { id: '1' }],
  ]

  test.each(pages)(
    '%s page: signed out → redirect to sign-in, coming back afterwards',
    async (_n, module, path, params) => {
      const res = await get(module.loader!, `${path}?search=abc`, { cookie: '', params })
      expect(res.status).toBe(302)
      const location = new URL(res.headers.get('Location')!, 'http://localhost')
      expect(location.pathname).toBe('/api/login')
      expect(location.searchParams.get('redirectTo')).toBe(`${path}?search=abc`)
    },
  )

  test.each(pages)(
    '%s page: an advertiser, an admin and a user without the role get 403',
    async (_n, module, path, params) => {
      await seed({ mrn: 'SECRET-MRN' })
      for (const cookie of [advertiserCookie, adminCookie, noRoleCookie]) {
        const res = await get(module.loader!, path, { cookie, params })
        expect(res.status).toBe(403)
        expect(await res.text()).not.toContain('SECRET-MRN')
      }
    },
  )

  test('page actions refuse anyone but a clinician, and change nothing', async () => {
    const before = (await db.select({ n: sql<number>`count(*)::int` }).from(ptdisease))[0]!.n
    for (const cookie of [advertiserCookie, adminCookie]) {
      const res = await post(
        listPage.action!,
        '/patient-diseases',
        { intent: 'create', mrn: 'X1', disease: 'Flu' },
        { cookie },
      )
      expect(res.status).toBe(403)
    }
    const signedOut = await post(
      listPage.action!,
      '/patient-diseases',
      { intent: 'create', mrn: 'X1', disease: 'Flu' },
      { cookie: '' },
    )
    expect(signedOut.status).toBe(302)
    expect(signedOut.headers.get('Location')).toMatch(/^\/api\/login\?/)
    const after = (await db.select({ n: sql<number>`count(*)::int` }).from(ptdisease))[0]!.n
    expect(after).toBe(before)
  })

  test('the API answers 401 JSON when signed out and 403 to an advertiser or an admin, for every method', async () => {
    const record = await seed({ mrn: 'API-SECRET' })
    const id = String(record.ptdiseaseID)
    const calls: Array<
      [(args: LoaderFunctionArgs) => unknown, string, string, unknown, Record<string, string>]
    > = [
      [api.loader, '/api/ptdisease', 'GET', undefined, {}],
      [api.action, '/api/ptdisease', 'POST', { mrn: 'N', disease: 'D' }, {}],
      [apiOne.loader, `/api/ptdisease/${id}`, 'GET', undefined, { id }],
      [apiOne.action, `/api/ptdisease/${id}`, 'PATCH', { disease: 'Changed' }, { id }],
      [apiOne.action, `/api/ptdisease/${id}`, 'DELETE', undefined, { id }],
    ]
    for (const [handler, path, method, body, params] of calls) {
      const out = await apiCall(handler, path, { method, body, params, cookie: '' })
      expect(out.status, `${method} ${path} signed out`).toBe(401)
      expect(out.headers.get('Cache-Control')).toBe('no-store')
      expect(((await out.json()) as { message: string }).message).toMatch(/sign in/i)
      for (const cookie of [advertiserCookie, adminCookie]) {
        const res = await apiCall(handler, path, { method, body, params, cookie })
        expect(res.status, `${method} ${path}`).toBe(403)
        expect(res.headers.get('Cache-Control')).toBe('no-store')
        expect(await res.text()).not.toContain('API-SECRET')
      }
    }
    expect(await findRecord(record.ptdiseaseID)).toMatchObject({ disease: 'Hypertension' })
  })
})

describe('the list page', () => {
  test('search matches MRN, disease, disease code and organ system case-insensitively, and the patient number exactly', async () => {
    const tag = `S${Date.now().toString(36)}`
    const a = await seed({
      mrn: `${tag}-alpha`,
      disease: 'Asthma',
      diseasecode: 'J45.909',
      organsystem: 'Respiratory',
      patientnumber: 918273,
    })
    const b = await seed({
      mrn: `${tag}-beta`,
      disease: 'Gout',
      diseasecode: 'M10.9',
      organsystem: 'Musculoskeletal',
      patientnumber: 9182731,
    })
    const ids = async (search: string) => {
      const data = await loaderData<{ records: PtDisease[] }>(
        await get(listPage.loader!, `/patient-diseases?search=${encodeURIComponent(search)}`),
      )
      return data.records.map((r) => r.ptdiseaseID).sort()
    }
    expect(await ids(tag.toLowerCase())).toEqual([a.ptdiseaseID, b.ptdiseaseID].sort())
    expect(await ids(`${tag}-ALPHA`)).toEqual([a.ptdiseaseID])
    expect(await ids('asthMA')).toContain(a.ptdiseaseID)
    expect(await ids('asthMA')).not.toContain(b.ptdiseaseID)
    expect(await ids('m10.9')).toEqual([b.ptdiseaseID])
    expect(await ids('musculoSKEL')).toContain(b.ptdiseaseID)
    // By number the match is exact: 918273 is not a prefix match for 9182731.
    expect(await ids('918273')).toEqual([a.ptdiseaseID])
    expect(await ids(' 9182731 ')).toEqual([b.ptdiseaseID])
  })

  test('LIKE wildcards in a search are plain characters', async () => {
    await seed({ mrn: 'WILD-100%', disease: 'Percent' })
    await seed({ mrn: 'WILD-1000', disease: 'NoPercent' })
    const data = await loaderData<{ records: PtDisease[] }>(
      await get(listPage.loader!, '/patient-diseases?search=WILD-100%25'),
    )
    expect(data.records.map((r) => r.mrn)).toEqual(['WILD-100%'])
    const underscore = await loaderData<{ records: PtDisease[] }>(
      await get(listPage.loader!, '/patient-diseases?search=WILD_1'),
    )
    expect(underscore.records).toEqual([])
  })

  test('more than 50 matches are paginated; a page past the end shows the last page', async () => {
    const tag = `P${Date.now().toString(36)}`
    await db.insert(ptdisease).values(
      Array.from({ length: 61 }, (_, i) => ({
        mrn: `${tag}-${String(i).padStart(3, '0')}`,
        disease: 'Paged',
      })),
    )
    type Page = { records: PtDisease[]; total: number; page: number; pageCount: number }
    const one = await loaderData<Page>(await get(listPage.loader!, `/patient-diseases?search=${tag}`))
    expect(one).toMatchObject({ total: 61, page: 1, pageCount: 2 })
    expect(one.records).toHaveLength(PTDISEASE_PAGE_SIZE)
    expect(one.records[0]!.mrn).toBe(`${tag}-060`)
    const two = await loaderData<Page>(await get(listPage.loader!, `/patient-diseases?search=${tag}&page=2`))
    expect(two.records.map((r) => r.mrn)).toEqual(
      Array.from({ length: 11 }, (_, i) => `${tag}-${String(10 - i).padStart(3, '0')}`),
    )
    const beyond = await loaderData<Page>(
      await get(listPage.loader!, `/patient-diseases?search=${tag}&page=99`),
    )
    expect(beyond.page).toBe(2)
    const junk = await loaderData<Page>(
      await get(listPage.loader!, `/patient-diseases?search=${tag}&page=abc`),
    )
    expect(junk.page).toBe(1)

    const { html } = await renderPage(`/patient-diseases?search=${tag}`)
    const text = textOf(html)
    expect(text).toContain('Showing 1–50 of 61 records · Page 1 of 2')
    expect(html).toMatch(new RegExp(`href="/patient-diseases\\?search=${tag}&amp;page=2"[^>]*>Next<`))

    const api2 = await apiCall(api.loader, `/api/ptdisease?search=${tag}&page=2`)
    expect(((await api2.json()) as unknown[]).length).toBe(11)
    expect(api2.headers.get('X-Total-Count')).toBe('61')
    expect(api2.headers.get('Link')).toBe(`</api/ptdisease?search=${tag}&page=1>; rel="prev"`)
    const api1 = await apiCall(api.loader, `/api/ptdisease?search=${tag}`)
    expect(api1.headers.get('Link')).toBe(`</api/ptdisease?search=${tag}&page=2>; rel="next"`)
  })

  test('renders the table with MM/dd/yyyy dates, edit and delete links, and the search box', async () => {
    const record = await seed({
      mrn: 'RENDER-1',
      patientnumber: 4321,
      disease: 'Type 2 diabetes mellitus',
      diseasecode: 'E11.9',
      organsystem: 'Endocrine',
      dateentered: '2025-01-05',
      lastreviewed: '2025-02-07',
    })
    const { status, html } = await renderPage('/patient-diseases?search=RENDER-1')
    expect(status).toBe(200)
    const text = textOf(html)
    expect(text).toContain(
      'MRN Patient # Disease Disease Code Organ System Date Entered Last Reviewed Actions',
    )
    expect(text).toContain(
      'RENDER-1 4321 Type 2 diabetes mellitus E11.9 Endocrine 01/05/2025 02/07/2025 Edit record RENDER-1 Delete record RENDER-1',
    )
    expect(html).toContain(`href="/patient-diseases/${record.ptdiseaseID}/edit?search=RENDER-1"`)
    expect(html).toContain(`href="/patient-diseases/${record.ptdiseaseID}/delete?search=RENDER-1"`)
    expect(html).toMatch(/<form method="get"[^>]*role="search"/)
    expect(html).toContain('<label for="ptdisease-search"')
    expect(html).toMatch(/<input id="ptdisease-search" name="search" type="search"[^>]*value="RENDER-1"/)
    expect(html).toMatch(/href="\/patient-diseases\/new\?search=RENDER-1"[^>]*>Add New Record</)
  })

  test('empty states: no records at all, and no match for a search', async () => {
    const { html: noMatch } = await renderPage('/patient-diseases?search=nothing-matches-this-zz')
    expect(textOf(noMatch)).toContain('No records found matching your search')

    // The whole table emptied (the audit trail stays).
    await db.delete(ptdisease)
    const { html: empty } = await renderPage('/patient-diseases')
    expect(textOf(empty)).toContain('No patient disease records yet')
    expect(textOf(empty)).not.toContain('No records found matching your search')
  })

  test('the page and its data are never cached', async () => {
    const res = await get(listPage.loader!, '/patient-diseases')
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    for (const module of [listPage, newPage, editPage, deletePage, historyPage]) {
      const headers = new Headers(
        module.headers({
          loaderHeaders: new Headers(),
          parentHeaders: new Headers(),
          actionHeaders: new Headers(),
          errorHeaders: undefined,
        }),
      )
      expect(headers.get('Cache-Control')).toBe('no-store')
    }
  })
})

describe('create, edit and delete through the page', () => {
  const fields = {
    mrn: '  PAGE-1 ',
    patientnumber: '1234',
    sexpatient: 'Female',
    dob: '1961-07-04',
    disease: 'Type 2 diabetes mellitus',
    diseasecode: 'e11.9',
    organsystem: 'Endocrine',
    longshortproblem: 'Long',
    dateentered: '2025-01-10',
    lastreviewed: '2025-01-31',
    reviewInterval: '30',
    questionsToAsk: '2',
    dxusedforcharge: 'on',
    CDMok: 'on',
    comment: 'Check A1c',
  }

  test('create: saved with derived fields, back to the list (search kept) with a toast', async () => {
    const res = await post(newPage.action!, '/patient-diseases/new?search=PAGE', {
      intent: 'create',
      ...fields,
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/patient-diseases?search=PAGE')
    expect(await toastOf(res)).toMatchObject({
      title: 'Success',
      description: 'Patient disease record created',
    })
    const [record] = await db.select().from(ptdisease).where(eq(ptdisease.mrn, 'PAGE-1'))
    expect(record).toMatchObject({
      patientnumber: 1234,
      sexpatient: 'Female',
      dob: '1961-07-04',
      diseasecode: 'E11.9',
      diseasecodesigdig: 'E11',
      ptnumberdiseasecode: '1234-E11.9',
      ptnumberdiseasecodesigdig: '1234-E11',
      dateDue: '2025-03-02',
      dxusedforcharge: true,
      CDMok: true,
      finished: false,
      questionsToAsk: 2,
      comment: 'Check A1c',
    })
  })

  test('the list route handles the same intents', async () => {
    const res = await post(listPage.action!, '/patient-diseases', {
      intent: 'create',
      mrn: 'LIST-ACTION',
      disease: 'Flu',
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/patient-diseases')
  })

  test('bad input: 400 with a message next to each field; nothing saved', async () => {
    const res = await post(newPage.action!, '/patient-diseases/new', {
      intent: 'create',
      mrn: '',
      disease: 'x',
      patientnumber: '-3',
      dob: '2999-01-01',
      dateentered: '2025-02-01',
      lastreviewed: '2025-01-01',
      reviewInterval: '4000',
    })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { message: string; result: { error: Record<string, string[]> } }
    expect(body.message).toBe('Please correct the highlighted fields.')
    expect(body.result.error).toMatchObject({
      mrn: ['MRN is required'],
      patientnumber: ['Patient number must be a positive whole number'],
      dob: ['Date of birth cannot be in the future'],
      lastreviewed: ['Last reviewed cannot be before the date entered'],
      reviewInterval: ['Review interval must be between 0 and 3650 days'],
    })
    expect(await db.select().from(ptdisease).where(eq(ptdisease.disease, 'x'))).toEqual([])
    expect(res.headers.get('Cache-Control')).toBe('no-store')
  })

  test('an unknown intent is a 400', async () => {
    const res = await post(listPage.action!, '/patient-diseases', { intent: 'archive', id: '1' })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ message: 'Unknown intent' })
    const none = await post(listPage.action!, '/patient-diseases', { mrn: 'NO-INTENT', disease: 'x' })
    expect(none.status).toBe(400)
  })

  test('edit: the form shows the record; saving updates it, re-derives, and audits only what changed', async () => {
    const record = await seed({
      mrn: 'EDIT-1',
      patientnumber: 77,
      diseasecode: 'I10',
      lastreviewed: '2025-01-01',
      reviewInterval: 10,
    })
    const id = String(record.ptdiseaseID)
    const loaded = await loaderData<{ record: PtDisease }>(
      await get(editPage.loader!, `/patient-diseases/${id}/edit`, { params: { id } }),
    )
    expect(loaded.record.mrn).toBe('EDIT-1')

    const res = await post(
      editPage.action!,
      `/patient-diseases/${id}/edit?page=2`,
      {
        intent: 'update',
        id,
        mrn: 'EDIT-1',
        patientnumber: '77',
        disease: 'Hypertension',
        diseasecode: 'I10',
        lastreviewed: '2025-01-01',
        reviewInterval: '20',
        resolved: 'on',
      },
      { params: { id } },
    )
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/patient-diseases?page=2')
    expect(await toastOf(res)).toMatchObject({
      title: 'Success',
      description: 'Patient disease record updated',
    })
    expect(await findRecord(record.ptdiseaseID)).toMatchObject({
      reviewInterval: 20,
      dateDue: '2025-01-21',
      resolved: true,
    })

    const [entry] = await listAuditEntries({ ptdiseaseID: record.ptdiseaseID, action: 'update' })
    expect(entry).toMatchObject({ userId: clinician.id, userEmail: clinician.email })
    expect(entry!.changes).toEqual({
      reviewInterval: { from: 10, to: 20 },
      dateDue: { from: '2025-01-11', to: '2025-01-21' },
      resolved: { from: false, to: true },
    })
  })

  test('edit of a record that no longer exists: back to the list with an error toast', async () => {
    const res = await post(
      editPage.action!,
      '/patient-diseases/99999/edit',
      { intent: 'update', id: '99999', mrn: 'GONE', disease: 'x' },
      { params: { id: '99999' } },
    )
    expect(res.status).toBe(302)
    expect(await toastOf(res)).toMatchObject({
      title: 'Error',
      description: 'Patient disease record not found',
      variant: 'destructive',
    })
    expect(
      (await get(editPage.loader!, '/patient-diseases/99999/edit', { params: { id: '99999' } })).status,
    ).toBe(404)
    expect(
      (await get(editPage.loader!, '/patient-diseases/abc/edit', { params: { id: 'abc' } })).status,
    ).toBe(404)
  })

  test('a form for one record cannot change another through its page', async () => {
    const a = await seed({ mrn: 'OWN-A' })
    const b = await seed({ mrn: 'OWN-B' })
    const res = await post(
      editPage.action!,
      `/patient-diseases/${a.ptdiseaseID}/edit`,
      { intent: 'delete', id: String(b.ptdiseaseID) },
      { params: { id: String(a.ptdiseaseID) } },
    )
    expect(res.status).toBe(400)
    expect(await findRecord(b.ptdiseaseID)).not.toBeNull()
  })

  test('delete: the confirmation page, then the record is gone with a toast and the list comes back', async () => {
    const record = await seed({ mrn: 'DEL-1', disease: 'Bronchitis' })
    const id = String(record.ptdiseaseID)

    const { status, html } = await renderPage(`/patient-diseases/${id}/delete?search=DEL`)
    expect(status).toBe(200)
    const text = textOf(html)
    expect(html).toMatch(/<dialog open="" aria-modal="true" aria-labelledby="[^"]+"/)
    expect(text).toContain('Are you sure?')
    expect(text).toContain(
      'This will permanently delete the patient disease record for MRN DEL-1 (Bronchitis). This action cannot be undone.',
    )
    expect(html).toMatch(
      new RegExp(`<form method="post" action="/patient-diseases/${id}/delete\\?search=DEL"`),
    )
    expect(html).toContain('<input type="hidden" name="intent" value="delete"/>')
    expect(html).toMatch(/<button type="submit"[^>]*>Delete<\/button>/)
    expect(html).toMatch(/href="\/patient-diseases\?search=DEL"[^>]*>Cancel</)
    // The list stays behind the dialog.
    expect(text).toContain('DEL-1')

    const res = await post(
      deletePage.action!,
      `/patient-diseases/${id}/delete?search=DEL`,
      { intent: 'delete', id },
      { params: { id } },
    )
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/patient-diseases?search=DEL')
    expect(await toastOf(res)).toMatchObject({
      title: 'Success',
      description: 'Patient disease record deleted',
    })
    expect(await findRecord(record.ptdiseaseID)).toBeNull()

    const again = await post(
      deletePage.action!,
      `/patient-diseases/${id}/delete`,
      { intent: 'delete', id },
      { params: { id } },
    )
    expect(await toastOf(again)).toMatchObject({
      title: 'Error',
      description: 'Patient disease record not found',
    })
    expect((await get(deletePage.loader!, `/patient-diseases/${id}/delete`, { params: { id } })).status).toBe(
      404,
    )
  })
})

describe('the form as HTML (no JavaScript)', () => {
  test('Add New Record: the sections, labelled fields of the right types, and Save Record', async () => {
    const { status, html } = await renderPage('/patient-diseases/new')
    expect(status).toBe(200)
    const text = textOf(html)
    expect(text).toContain('Add New Record')
    for (const legend of [
      'Patient Information',
      'Disease Information',
      'Tracking Information',
      'CDM Information',
      'Comments',
    ]) {
      expect(html).toContain(`<legend class="px-1 text-base font-semibold text-ink">${legend}</legend>`)
    }
    const input = (name: string) => {
      const tag = control(html, name)
      const id = /id="([^"]+)"/.exec(tag)![1]!
      expect(html, `label for ${name}`).toContain(`for="${id}"`)
      return tag
    }
    expect(input('mrn')).toMatch(/required=""/)
    expect(input('mrn')).toMatch(/maxLength="50"/)
    expect(input('disease')).toMatch(/required=""/)
    for (const name of ['dob', 'dateentered', 'lastreviewed']) expect(input(name)).toContain('type="date"')
    for (const name of ['reviewInterval', 'questionsToAsk']) expect(input(name)).toContain('type="number"')
    expect(input('reviewInterval')).toMatch(/max="3650"/)
    for (const name of [
      'choose',
      'finished',
      'dxusedforcharge',
      'resolved',
      'ptanswered',
      'CDMok',
      'controlledCDM',
    ]) {
      expect(input(name)).toContain('type="checkbox"')
      expect(input(name)).not.toContain('required')
    }
    expect(input('sexpatient')).toMatch(/^<select/)
    expect(html).toMatch(
      /<option value="Male">Male<\/option><option value="Female">Female<\/option><option value="Other">Other<\/option>/,
    )
    expect(input('comment')).toMatch(/^<textarea/)
    expect(html).toMatch(/<button type="submit"[^>]*>Save Record<\/button>/)
    // Browser checks stay on without JavaScript.
    expect(html).not.toMatch(/<form[^>]*noValidate/i)
  })

  test('a failed save re-renders the dialog with the values and the messages next to the fields', async () => {
    const { status, html } = await renderPage('/patient-diseases/new', {
      method: 'POST',
      body: form({ intent: 'create', mrn: 'KEEP-ME', disease: '', reviewInterval: '-4' }),
    })
    expect(status).toBe(400)
    const text = textOf(html)
    expect(text).toContain('Please correct the highlighted fields.')
    expect(text).toContain('Disease is required')
    expect(text).toContain('Review interval must be between 0 and 3650 days')
    expect(control(html, 'mrn')).toContain('value="KEEP-ME"')
    expect(control(html, 'disease')).toContain('aria-invalid="true"')
    expect(control(html, 'disease')).toContain('aria-describedby="ptdisease-create-disease-error"')
    expect(html).toContain(
      '<p id="ptdisease-create-disease-error" class="mt-1 text-sm text-red-700">Disease is required</p>',
    )
  })

  test('Edit Record: the stored values are filled in; history is one link away', async () => {
    const record = await seed({
      mrn: 'FORM-EDIT',
      patientnumber: 55,
      dob: '1950-03-03',
      resolved: true,
      reviewInterval: 14,
    })
    const { html } = await renderPage(`/patient-diseases/${record.ptdiseaseID}/edit`)
    expect(textOf(html)).toContain('Edit Record')
    expect(control(html, 'mrn')).toContain('value="FORM-EDIT"')
    expect(control(html, 'patientnumber')).toContain('value="55"')
    expect(control(html, 'dob')).toContain('value="1950-03-03"')
    expect(control(html, 'resolved')).toContain('checked=""')
    expect(control(html, 'finished')).not.toContain('checked')
    expect(control(html, 'reviewInterval')).toContain('value="14"')
    expect(html).toContain(`<input type="hidden" name="id" value="${record.ptdiseaseID}"/>`)
    expect(html).toContain(`href="/patient-diseases/${record.ptdiseaseID}/history"`)
  })
})

describe('/api/ptdisease', () => {
  test('POST creates from JSON (dates and numbers as strings) → 201 with the record and derived fields', async () => {
    const res = await apiCall(api.action, '/api/ptdisease', {
      method: 'POST',
      body: {
        mrn: 'API-1',
        patientnumber: '1234',
        disease: 'Type 2 diabetes mellitus',
        diseasecode: 'E11.9',
        dateentered: '2025-01-01',
        lastreviewed: '2025-01-15T00:00:00.000Z',
        reviewInterval: '90',
        resolved: true,
        ptnumberdiseasecode: 'ignored',
      },
    })
    expect(res.status).toBe(201)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const record = (await res.json()) as PtDisease
    expect(record).toMatchObject({
      mrn: 'API-1',
      patientnumber: 1234,
      ptnumberdiseasecode: '1234-E11.9',
      ptnumberdiseasecodesigdig: '1234-E11',
      diseasecodesigdig: 'E11',
      lastreviewed: '2025-01-15',
      dateDue: '2025-04-15',
      resolved: true,
    })
    expect(record.ptdiseaseID).toEqual(expect.any(Number))
  })

  test('POST with bad fields → 400 {message, errors: {field: [...]}}', async () => {
    const res = await apiCall(api.action, '/api/ptdisease', {
      method: 'POST',
      body: { mrn: ' ', disease: 'x', sexpatient: 'X', questionsToAsk: -2 },
    })
    expect(res.status).toBe(400)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const body = (await res.json()) as { message: string; errors: Record<string, string[]> }
    expect(body.errors).toEqual({
      mrn: ['MRN is required'],
      sexpatient: ['Sex must be Male, Female or Other'],
      questionsToAsk: ['Questions to ask cannot be negative'],
    })
    expect(body.message).toContain('MRN is required')
  })

  test('POST needs a JSON object body', async () => {
    const notJson = await apiCall(api.action, '/api/ptdisease', {
      method: 'POST',
      body: 'mrn=1',
      contentType: 'text/plain',
    })
    expect(notJson.status).toBe(415)
    const broken = await apiCall(api.action, '/api/ptdisease', { method: 'POST', body: '{"mrn":' })
    expect(broken.status).toBe(400)
    expect(await broken.json()).toEqual({ message: 'The request body is not valid JSON' })
    const list = await apiCall(api.action, '/api/ptdisease', { method: 'POST', body: '[]' })
    expect(list.status).toBe(400)
    const put = await apiCall(api.action, '/api/ptdisease', { method: 'PUT', body: {} })
    expect(put.status).toBe(405)
  })

  test('GET lists records matching ?search=', async () => {
    await seed({ mrn: 'APILIST-1', organsystem: 'Renal' })
    const res = await apiCall(api.loader, '/api/ptdisease?search=apilist')
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const body = (await res.json()) as PtDisease[]
    expect(body.map((r) => r.mrn)).toEqual(['APILIST-1'])
  })

  test('PATCH updates only the fields sent, validates the merged record, re-derives; unknown id → 404', async () => {
    const record = await seed({
      mrn: 'PATCH-1',
      patientnumber: 9,
      diseasecode: 'K21.9',
      dateentered: '2025-01-10',
      lastreviewed: '2025-01-20',
      reviewInterval: 5,
    })
    const id = String(record.ptdiseaseID)
    const res = await apiCall(apiOne.action, `/api/ptdisease/${id}`, {
      method: 'PATCH',
      body: { diseasecode: 'k21.0', reviewInterval: '10' },
      params: { id },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    expect(await res.json()).toMatchObject({
      mrn: 'PATCH-1',
      diseasecode: 'K21.0',
      ptnumberdiseasecode: '9-K21.0',
      dateentered: '2025-01-10',
      dateDue: '2025-01-30',
    })

    const crossing = await apiCall(apiOne.action, `/api/ptdisease/${id}`, {
      method: 'PATCH',
      body: { lastreviewed: '2025-01-01' },
      params: { id },
    })
    expect(crossing.status).toBe(400)
    expect(((await crossing.json()) as { errors: object }).errors).toEqual({
      lastreviewed: ['Last reviewed cannot be before the date entered'],
    })

    const cleared = await apiCall(apiOne.action, `/api/ptdisease/${id}`, {
      method: 'PATCH',
      body: { reviewInterval: null },
      params: { id },
    })
    expect(await cleared.json()).toMatchObject({ reviewInterval: null, dateDue: null })

    const missing = await apiCall(apiOne.action, '/api/ptdisease/99999', {
      method: 'PATCH',
      body: { mrn: 'x' },
      params: { id: '99999' },
    })
    expect(missing.status).toBe(404)
    expect(missing.headers.get('Cache-Control')).toBe('no-store')
    expect(await missing.json()).toEqual({ message: 'Patient disease record not found' })
    expect((await apiCall(apiOne.loader, '/api/ptdisease/nope', { params: { id: 'nope' } })).status).toBe(404)
  })

  test('DELETE → 204, then 404', async () => {
    const record = await seed({ mrn: 'APIDEL-1' })
    const id = String(record.ptdiseaseID)
    const res = await apiCall(apiOne.action, `/api/ptdisease/${id}`, { method: 'DELETE', params: { id } })
    expect(res.status).toBe(204)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    expect(await findRecord(record.ptdiseaseID)).toBeNull()
    const again = await apiCall(apiOne.action, `/api/ptdisease/${id}`, { method: 'DELETE', params: { id } })
    expect(again.status).toBe(404)
  })
})

describe('the audit trail', () => {
  test('list views, views, creates, updates and deletes are recorded with who and which record', async () => {
    await get(listPage.loader!, '/patient-diseases?search=AUDIT-TRAIL')
    const [list] = await listAuditEntries({ action: 'list' })
    expect(list).toMatchObject({ userId: clinician.id, userEmail: clinician.email, ptdiseaseID: null })
    expect(list!.changes).toMatchObject({ search: 'AUDIT-TRAIL', page: 1, ids: [] })

    const created = await apiCall(api.action, '/api/ptdisease', {
      method: 'POST',
      body: { mrn: 'AUDIT-TRAIL', disease: 'Anemia', patientnumber: 3 },
    })
    const record = (await created.json()) as PtDisease
    const id = String(record.ptdiseaseID)

    await get(listPage.loader!, '/patient-diseases?search=AUDIT-TRAIL')
    const [listed] = await listAuditEntries({ action: 'list' })
    expect(listed!.changes).toMatchObject({ ids: [record.ptdiseaseID] })

    await get(editPage.loader!, `/patient-diseases/${id}/edit`, { params: { id } })
    await apiCall(apiOne.action, `/api/ptdisease/${id}`, {
      method: 'PATCH',
      body: { disease: 'Iron deficiency anemia' },
      params: { id },
    })
    await apiCall(apiOne.action, `/api/ptdisease/${id}`, { method: 'DELETE', params: { id } })

    const trail = (await listAuditEntries({ ptdiseaseID: record.ptdiseaseID })).reverse()
    expect(trail.map((e) => e.action)).toEqual(['create', 'view', 'update', 'delete'])
    expect(trail.every((e) => e.userId === clinician.id && e.userEmail === clinician.email)).toBe(true)
    expect(trail[0]!.changes).toMatchObject({
      mrn: { from: null, to: 'AUDIT-TRAIL' },
      patientnumber: { from: null, to: 3 },
    })
    expect(trail[2]!.changes).toEqual({ disease: { from: 'Anemia', to: 'Iron deficiency anemia' } })
    // What was deleted stays readable in the trail.
    expect(trail[3]!.changes).toMatchObject({ mrn: { from: 'AUDIT-TRAIL', to: null } })
  })

  test('the history page shows a record’s trail, also after it was deleted', async () => {
    const record = await seed({ mrn: 'HIST-1', lastreviewed: '2025-03-01' })
    const id = String(record.ptdiseaseID)
    await post(
      editPage.action!,
      `/patient-diseases/${id}/edit`,
      { intent: 'update', id, mrn: 'HIST-1', disease: 'Hypertension', lastreviewed: '2025-04-01' },
      { params: { id } },
    )
    const { html } = await renderPage(`/patient-diseases/${id}/history`)
    const text = textOf(html)
    expect(text).toContain('Record History')
    expect(text).toContain(`Created by ${clinician.email}`)
    expect(text).toContain(`Updated by ${clinician.email}`)
    expect(text).toContain('Last Reviewed 03/01/2025 04/01/2025')

    await post(
      deletePage.action!,
      `/patient-diseases/${id}/delete`,
      { intent: 'delete', id },
      { params: { id } },
    )
    const after = await loaderData<{ deleted: boolean; entries: Array<{ action: string }> }>(
      await get(historyPage.loader!, `/patient-diseases/${id}/history`, { params: { id } }),
    )
    expect(after.deleted).toBe(true)
    expect(after.entries.map((e) => e.action)).toEqual(['Created', 'Updated', 'Viewed history', 'Deleted'])
    expect(
      (await get(historyPage.loader!, '/patient-diseases/424242/history', { params: { id: '424242' } }))
        .status,
    ).toBe(404)
  })

  test('the trail is append-only: UPDATE and DELETE on ptdisease_audit fail', async () => {
    await seed({ mrn: 'APPEND-ONLY' })
    const [entry] = await listAuditEntries({ action: 'create' })
    await expect(
      db
        .update(ptdiseaseAudit)
        .set({ userEmail: 'someone-else@example.com' })
        .where(eq(ptdiseaseAudit.id, entry!.id)),
    ).rejects.toThrow()
    await expect(db.delete(ptdiseaseAudit).where(eq(ptdiseaseAudit.id, entry!.id))).rejects.toThrow()
    await expect(db.execute(sql`DELETE FROM ptdisease_audit`)).rejects.toThrow()
    const [still] = await db.select().from(ptdiseaseAudit).where(eq(ptdiseaseAudit.id, entry!.id))
    expect(still).toEqual(entry)
  })
})

describe('patient data stays out of logs', () => {
  const methods = ['log', 'info', 'warn', 'debug', 'error'] as const
  let spies: Array<ReturnType<typeof vi.spyOn>> = []
  beforeEach(() => {
    spies = methods.filter((m) => m !== 'error').map((m) => vi.spyOn(console, m))
  })
  afterEach(() => spies.forEach((s) => s.mockRestore()))

  test('listing, creating, updating and deleting print nothing', async () => {
    const created = await apiCall(api.action, '/api/ptdisease', {
      method: 'POST',
      body: { mrn: 'QUIET-1', disease: 'Migraine' },
    })
    const { ptdiseaseID } = (await created.json()) as PtDisease
    const id = String(ptdiseaseID)
    await apiCall(api.loader, '/api/ptdisease?search=QUIET')
    await get(listPage.loader!, '/patient-diseases?search=QUIET')
    await apiCall(apiOne.action, `/api/ptdisease/${id}`, {
      method: 'PATCH',
      body: { disease: 'Chronic migraine' },
      params: { id },
    })
    await apiCall(apiOne.action, `/api/ptdisease/${id}`, { method: 'DELETE', params: { id } })
    for (const spy of spies) expect(spy).not.toHaveBeenCalled()
  })

  test('a failed query reports its SQLSTATE, not the values it carried', async () => {
    const input = schema.parse({ mrn: 'LEAKY-MRN-123', disease: 'Secret disease' })
    const error = await createPtdisease({ ...input, organsystem: 'o'.repeat(101) }, actor).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(PtdiseaseStoreError)
    expect((error as PtdiseaseStoreError).code).toBe('22001')
    const everything = `${String(error)} ${(error as Error).stack} ${JSON.stringify(error)} ${String((error as Error).cause)}`
    expect(everything).not.toContain('LEAKY-MRN-123')
    expect(everything).not.toContain('Secret disease')
  })

  test('a NUL character in a record is refused with a 400 before it reaches the database', async () => {
    const res = await apiCall(api.action, '/api/ptdisease', {
      method: 'POST',
      body: { mrn: 'NUL-MRN', disease: 'Secret', organsystem: 'Neuro\u0000logic' },
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ message: expect.stringContaining('NUL') })
  })

  test('an API failure answers 500 JSON (no-store) and logs no record', async () => {
    expectConsoleError()
    // A rule only the database knows makes the insert fail after validation passed.
    await db.execute(sql`ALTER TABLE ptdisease ADD CONSTRAINT test_refuse_all CHECK (false) NOT VALID`)
    const res = await apiCall(api.action, '/api/ptdisease', {
      method: 'POST',
      body: { mrn: 'LOGGED-MRN', disease: 'Secret', organsystem: 'Neurologic' },
    }).finally(() => db.execute(sql`ALTER TABLE ptdisease DROP CONSTRAINT test_refuse_all`))
    expect(res.status).toBe(500)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    expect(await res.json()).toEqual({ message: 'Something went wrong. Please try again.' })
    const logged = (console.error as unknown as { mock: { calls: unknown[][] } }).mock.calls
      .flat()
      .map(String)
      .join(' ')
    expect(logged).not.toContain('LOGGED-MRN')
  })
})
