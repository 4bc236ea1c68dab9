/**
 * Who may reach what: every route of app/routes is listed here, either as public or with the answer each kind of
 * visitor gets — signed out, an advertiser who does not own the thing, a clinician, an administrator, and the
 * one it belongs to. The requests go through the built app, so a route's own guard is what is tested. A route file
 * that is not listed fails the last test: a new route comes with its line here.
 */
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { enqueueMessage } from '#app/models/mail/outbox.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { ptdisease } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { insertBusiness, insertPaidPayment, insertTestEvent } from '#tests/support/events.ts'

type Actor = 'anonymous' | 'otherBusiness' | 'clinician' | 'admin' | 'owner'
/** A status, or a redirect's target (its path, without the query), or a matcher of one. */
type Answer = number | `→${string}`
type Expectations = Partial<Record<Actor, Answer | ReturnType<typeof expect.stringMatching>>>

interface Fixture {
  eventID: number
  businessID: number
  /** A business whose only ad was taken down: it has no page. */
  takenDownBusinessID: number
  paymentID: number
  recordID: number
  messageID: number
}

interface GuardedRoute {
  file: string
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: (f: Fixture) => string
  /** Sends `{}` as JSON (a JSON call) instead of an empty form. */
  json?: boolean
  expect: Expectations
}

const SIGN_IN = '→/api/login'
const BUSINESS_SIGN_IN = '→/login'
/** An administrators' page: the staff sign-in for visitors, 403 for anyone without the role. */
const ADMIN_PAGE: Expectations = { anonymous: SIGN_IN, otherBusiness: 403, clinician: 403, admin: 200 }
/** An administrators' form post, sent empty: refused as bad input. */
const ADMIN_FORM: Expectations = { ...ADMIN_PAGE, admin: 400 }
const ADMIN_API: Expectations = { anonymous: 401, otherBusiness: 403, clinician: 403 }
const CLINICIAN_PAGE: Expectations = { anonymous: SIGN_IN, otherBusiness: 403, admin: 403, clinician: 200 }
const CLINICIAN_API: Expectations = { anonymous: 401, otherBusiness: 403, admin: 403, clinician: 200 }
const ADVERTISER_PAGE: Expectations = { anonymous: BUSINESS_SIGN_IN, clinician: BUSINESS_SIGN_IN, owner: 200 }
/** Another advertiser's ad, receipt or figures. */
const OWNED_PAGE: Expectations = { ...ADVERTISER_PAGE, otherBusiness: 403 }

const GUARDED: GuardedRoute[] = [
  { file: 'admin.tsx', method: 'GET', path: () => '/admin', expect: ADMIN_PAGE },
  { file: 'admin.tsx', method: 'POST', path: () => '/admin', expect: ADMIN_FORM },
  { file: 'admin_.categories.tsx', method: 'GET', path: () => '/admin/categories', expect: ADMIN_PAGE },
  { file: 'admin_.categories.tsx', method: 'POST', path: () => '/admin/categories', expect: ADMIN_FORM },
  { file: 'admin_.pricing.tsx', method: 'GET', path: () => '/admin/pricing', expect: ADMIN_PAGE },
  { file: 'admin_.pricing.tsx', method: 'POST', path: () => '/admin/pricing', expect: ADMIN_FORM },
  { file: 'admin_.promo-codes.tsx', method: 'GET', path: () => '/admin/promo-codes', expect: ADMIN_PAGE },
  { file: 'admin_.promo-codes.tsx', method: 'POST', path: () => '/admin/promo-codes', expect: ADMIN_FORM },
  { file: 'admin_.outbox._index.tsx', method: 'GET', path: () => '/admin/outbox', expect: ADMIN_PAGE },
  { file: 'admin_.subscriptions.tsx', method: 'GET', path: () => '/admin/subscriptions', expect: ADMIN_PAGE },
  { file: 'admin_.reports.tsx', method: 'GET', path: () => '/admin/reports', expect: ADMIN_PAGE },
  { file: 'admin_.reports.tsx', method: 'POST', path: () => '/admin/reports', expect: ADMIN_FORM },
  { file: 'admin_.audit.tsx', method: 'GET', path: () => '/admin/audit', expect: ADMIN_PAGE },
  { file: 'admin_.listings.tsx', method: 'GET', path: () => '/admin/listings', expect: ADMIN_PAGE },
  ...(['csv', 'txt', 'html'] as const).map((extension) => ({
    file: `admin_.listings[.]${extension}.ts`,
    method: 'GET' as const,
    path: () => `/admin/listings.${extension}?from=2026-01-01&to=2026-01-31`,
    expect: ADMIN_PAGE,
  })),
  {
    file: 'admin_.audit[.]csv.ts',
    method: 'GET',
    path: () => '/admin/audit.csv?from=2026-01-01&to=2026-01-31',
    expect: ADMIN_PAGE,
  },
  {
    file: 'admin_.events.$id.tsx',
    method: 'GET',
    path: (f) => `/admin/events/${f.eventID}`,
    expect: ADMIN_PAGE,
  },
  {
    file: 'admin_.events.$id.tsx',
    method: 'POST',
    path: (f) => `/admin/events/${f.eventID}`,
    expect: ADMIN_FORM,
  },
  // A live ad's schedule status: its form, also on the ad's admin page.
  {
    file: 'admin_.events.$id_.status.tsx',
    method: 'GET',
    path: (f) => `/admin/events/${f.eventID}/status`,
    expect: ADMIN_PAGE,
  },
  {
    file: 'admin_.events.$id_.status.tsx',
    method: 'POST',
    path: (f) => `/admin/events/${f.eventID}/status`,
    expect: ADMIN_FORM,
  },
  // The form lives on /admin: a GET, or a submit with nothing ticked, goes back there.
  {
    file: 'admin_.bulk-approve.tsx',
    method: 'GET',
    path: () => '/admin/bulk-approve',
    expect: { ...ADMIN_PAGE, admin: '→/admin' },
  },
  {
    file: 'admin_.bulk-approve.tsx',
    method: 'POST',
    path: () => '/admin/bulk-approve',
    expect: { ...ADMIN_PAGE, admin: '→/admin' },
  },
  { file: 'admin_.checks.tsx', method: 'GET', path: () => '/admin/checks', expect: ADMIN_PAGE },
  { file: 'admin_.checks.tsx', method: 'POST', path: () => '/admin/checks', expect: ADMIN_FORM },
  {
    file: 'admin_.outbox.$id.tsx',
    method: 'GET',
    path: (f) => `/admin/outbox/${f.messageID}`,
    expect: ADMIN_PAGE,
  },
  {
    file: 'api.admin.pending-events.ts',
    method: 'GET',
    path: () => '/api/admin/pending-events',
    expect: { ...ADMIN_API, admin: 200 },
  },
  {
    file: 'api.admin.review-event.ts',
    method: 'POST',
    path: () => '/api/admin/review-event',
    json: true,
    expect: { ...ADMIN_API, admin: 400 },
  },
  { file: 'api.ptdisease.ts', method: 'GET', path: () => '/api/ptdisease', expect: CLINICIAN_API },
  {
    file: 'api.ptdisease.$id.ts',
    method: 'GET',
    path: (f) => `/api/ptdisease/${f.recordID}`,
    expect: CLINICIAN_API,
  },
  { file: 'patient-diseases.tsx', method: 'GET', path: () => '/patient-diseases', expect: CLINICIAN_PAGE },
  {
    file: 'patient-diseases.new.tsx',
    method: 'GET',
    path: () => '/patient-diseases/new',
    expect: CLINICIAN_PAGE,
  },
  {
    file: 'patient-diseases.$id.edit.tsx',
    method: 'GET',
    path: (f) => `/patient-diseases/${f.recordID}/edit`,
    expect: CLINICIAN_PAGE,
  },
  {
    file: 'patient-diseases.$id.delete.tsx',
    method: 'GET',
    path: (f) => `/patient-diseases/${f.recordID}/delete`,
    expect: CLINICIAN_PAGE,
  },
  {
    file: 'patient-diseases.$id.history.tsx',
    method: 'GET',
    path: (f) => `/patient-diseases/${f.recordID}/history`,
    expect: CLINICIAN_PAGE,
  },
  { file: 'dashboard.tsx', method: 'GET', path: () => '/dashboard', expect: ADVERTISER_PAGE },
  {
    file: 'dashboard.tsx',
    method: 'POST',
    path: () => '/dashboard',
    // "Show my business page", sent empty: refused as bad input.
    expect: { anonymous: BUSINESS_SIGN_IN, clinician: BUSINESS_SIGN_IN, owner: 400 },
  },
  {
    file: 'business.$slug.tsx',
    method: 'GET',
    path: (f) => `/business/${f.businessID}`,
    // Everyone is sent to the page's own address, which everyone may read.
    expect: {
      anonymous: expect.stringMatching(/^→\/business\/\d+-[a-z0-9-]+$/),
      otherBusiness: expect.stringMatching(/^→\/business\/\d+-[a-z0-9-]+$/),
      owner: expect.stringMatching(/^→\/business\/\d+-[a-z0-9-]+$/),
    },
  },
  {
    file: 'business.$slug.tsx',
    method: 'GET',
    path: (f) => `/business/${f.takenDownBusinessID}`,
    // A business whose ad was taken down has no page, for anyone.
    expect: { anonymous: 404, otherBusiness: 404, admin: 404 },
  },
  {
    file: 'business.$id_.calendar[.]ics.ts',
    method: 'GET',
    path: (f) => `/business/${f.businessID}/calendar.ics`,
    expect: { anonymous: 200, otherBusiness: 200 },
  },
  {
    file: 'business.$id_.calendar[.]ics.ts',
    method: 'GET',
    path: (f) => `/business/${f.takenDownBusinessID}/calendar.ics`,
    expect: { anonymous: 404, admin: 404 },
  },
  {
    file: 'business.$id_.calendar[.]rss.ts',
    method: 'GET',
    path: (f) => `/business/${f.businessID}/calendar.rss`,
    expect: { anonymous: 200, otherBusiness: 200 },
  },
  {
    file: 'business.$id_.calendar[.]rss.ts',
    method: 'GET',
    path: (f) => `/business/${f.takenDownBusinessID}/calendar.rss`,
    expect: { anonymous: 404, admin: 404 },
  },
  {
    file: 'dashboard.events.new.tsx',
    method: 'GET',
    path: () => '/dashboard/events/new',
    expect: ADVERTISER_PAGE,
  },
  {
    file: 'dashboard.events.preview.tsx',
    method: 'GET',
    path: () => '/dashboard/events/preview',
    expect: { ...ADVERTISER_PAGE, owner: '→/dashboard/events/new' },
  },
  {
    file: 'dashboard_.events.$id.tsx',
    method: 'GET',
    path: (f) => `/dashboard/events/${f.eventID}`,
    expect: OWNED_PAGE,
  },
  {
    file: 'dashboard.events.$id.edit.tsx',
    method: 'GET',
    path: (f) => `/dashboard/events/${f.eventID}/edit`,
    // The editor does not confirm that another business's ad exists.
    expect: { ...OWNED_PAGE, otherBusiness: 404 },
  },
  {
    file: 'dashboard_.events.$id_.analytics[.]csv.ts',
    method: 'GET',
    path: (f) => `/dashboard/events/${f.eventID}/analytics.csv`,
    expect: { anonymous: 401, clinician: 401, otherBusiness: 403, owner: 200 },
  },
  {
    file: 'dashboard_.events.$id_.run-again.tsx',
    method: 'POST',
    path: (f) => `/dashboard/events/${f.eventID}/run-again`,
    // The copy's own form, as for any new ad; the editor does not confirm another business's ad exists.
    expect: {
      ...ADVERTISER_PAGE,
      otherBusiness: 404,
      owner: expect.stringMatching(/^→\/dashboard\/events\/\d+\/edit$/),
    },
  },
  // The owner's status form (also on the ad's page); an empty post is refused as bad input.
  {
    file: 'dashboard_.events.$id_.status.tsx',
    method: 'GET',
    path: (f) => `/dashboard/events/${f.eventID}/status`,
    expect: OWNED_PAGE,
  },
  {
    file: 'dashboard_.events.$id_.status.tsx',
    method: 'POST',
    path: (f) => `/dashboard/events/${f.eventID}/status`,
    expect: { ...OWNED_PAGE, owner: 400 },
  },
  // A live ad's sponsorship, bought from its page; an empty post is refused as bad input.
  {
    file: 'dashboard_.events.$id_.sponsor.tsx',
    method: 'GET',
    path: (f) => `/dashboard/events/${f.eventID}/sponsor`,
    expect: OWNED_PAGE,
  },
  {
    file: 'dashboard_.events.$id_.sponsor.tsx',
    method: 'POST',
    path: (f) => `/dashboard/events/${f.eventID}/sponsor`,
    expect: { ...OWNED_PAGE, owner: 400 },
  },
  // A free listing's confirmation; the fixture's ad was paid at a price, so its owner is told it is not one.
  {
    file: 'dashboard_.events.$id_.submitted.tsx',
    method: 'GET',
    path: (f) => `/dashboard/events/${f.eventID}/submitted`,
    expect: { ...OWNED_PAGE, owner: 404 },
  },
  {
    file: 'dashboard_.receipts.$id.tsx',
    method: 'GET',
    path: (f) => `/dashboard/receipts/${f.paymentID}`,
    expect: OWNED_PAGE,
  },
  {
    file: 'checkout.tsx',
    method: 'GET',
    path: () => '/checkout',
    // The ad being paid for is kept in the advertiser's session; without one, back to the start.
    expect: { ...ADVERTISER_PAGE, owner: '→/' },
  },
  {
    file: 'customer-view-demo.tsx',
    method: 'GET',
    path: () => '/customer-view-demo',
    expect: ADVERTISER_PAGE,
  },
  { file: 'demo.tsx', method: 'GET', path: () => '/demo', expect: ADVERTISER_PAGE },
  { file: 'file-storage-test.tsx', method: 'GET', path: () => '/file-storage-test', expect: ADVERTISER_PAGE },
  {
    file: 'api.business.$id.events.ts',
    method: 'GET',
    path: (f) => `/api/business/${f.businessID}/events`,
    expect: { anonymous: 401, clinician: 401, otherBusiness: 403, owner: 200 },
  },
  {
    file: 'api.business.$id.analytics.ts',
    method: 'GET',
    path: (f) => `/api/business/${f.businessID}/analytics?from=2026-01-01&to=2026-01-31`,
    expect: { anonymous: 401, clinician: 401, otherBusiness: 403, owner: 200 },
  },
  {
    file: 'api.business.$id.click-stats.ts',
    method: 'GET',
    path: (f) => `/api/business/${f.businessID}/click-stats`,
    expect: { anonymous: 401, clinician: 401, otherBusiness: 403, owner: 200 },
  },
  {
    file: 'api.approve-event.ts',
    method: 'POST',
    path: () => '/api/approve-event',
    expect: { anonymous: 401, clinician: 401 },
  },
  {
    file: 'api.create-event-payment.ts',
    method: 'POST',
    path: () => '/api/create-event-payment',
    expect: { anonymous: 401, clinician: 401 },
  },
  {
    file: 'api.sponsor-payment.ts',
    method: 'POST',
    path: () => '/api/sponsor-payment',
    json: true,
    // `{}` names no ad: a signed-in advertiser is refused as bad input.
    expect: { anonymous: 401, clinician: 401, owner: 400, otherBusiness: 400 },
  },
  {
    file: 'api.complete-event-payment.ts',
    method: 'POST',
    path: () => '/api/complete-event-payment',
    expect: { anonymous: 401, clinician: 401 },
  },
  {
    file: 'api.business-event.ts',
    method: 'POST',
    path: () => '/api/business-event',
    expect: { anonymous: 401, clinician: 401 },
  },
  {
    file: 'api.file-storage.upload-image.ts',
    method: 'POST',
    path: () => '/api/file-storage/upload-image',
    expect: { anonymous: 401, clinician: 401 },
  },
  {
    file: 'api.file-storage.upload-video.ts',
    method: 'POST',
    path: () => '/api/file-storage/upload-video',
    expect: { anonymous: 401, clinician: 401 },
  },
  {
    file: 'metrics.ts',
    method: 'GET',
    path: () => '/metrics',
    expect: { anonymous: 404, owner: 404, admin: 404 },
  },
  // The owner's preview of an ad: the same "not found" as a missing id for everyone else.
  {
    file: 'event.$id.tsx',
    method: 'GET',
    path: (f) => `/event/${f.eventID}`,
    expect: { anonymous: 404, otherBusiness: 404, clinician: 404, admin: 404, owner: 200 },
  },
  // A live ad's public page at a stale slug: sent on to its address, whoever asks.
  {
    file: 'event.$id.tsx',
    method: 'GET',
    path: (f) => `/event/${f.eventID}-an-old-title`,
    expect: Object.fromEntries(
      (['anonymous', 'otherBusiness', 'clinician', 'admin', 'owner'] as const).map((actor) => [
        actor,
        expect.stringMatching(/^→\/event\/\d+-(?!an-old-title$)[a-z0-9-]+$/),
      ]),
    ),
  },
]

/** Routes anyone may use; their own tests cover what they answer. */
const PUBLIC_ROUTES = [
  '$.tsx',
  '_index.tsx',
  'landing.tsx',
  'calendar.tsx',
  'calendar[.]ics.ts',
  'calendar[.]rss.ts',
  'public.tsx',
  'embed._index.tsx',
  'embed.calendar.tsx',
  'event.$id_.calendar[.]ics.ts',
  'event.$id_.view.ts',
  // The address of an ad's QR code: a redirect to the ad's page for anyone (qr-codes.test.ts).
  'event.$id_.qr.ts',
  // A live event's share images; anything else is a 404 for everyone (share-images tests).
  'event.$id_.share.$image.ts',
  'api.events.$id.ts',
  'api.events._index.ts',
  'api.events.active.ts',
  'api.events.$id.track-bounce.ts',
  'api.events.$id.track-click.ts',
  'api.public-events.ts',
  'api.categories.ts',
  'api.charges.$days.ts',
  'terms.tsx',
  // Any visitor may report an ad (with limits per address); the report route's own tests cover them.
  'event.$id_.report.tsx',
  // Visitors' subscriptions: the signed link in an email is what decides, not a session.
  'subscribe.tsx',
  'subscriptions.confirm.tsx',
  'subscriptions.manage.tsx',
  'subscriptions.unsubscribe.tsx',
  'api.media.$filename.ts',
  'uploads.$filename.ts',
  'api.stripe.webhook.ts',
  'api.test-upload.ts',
  'robots[.]txt.ts',
  'sitemap[.]xml.ts',
  'sitemaps.$file.ts',
  'indexnow-key[.]txt.ts',
  'healthz.ts',
  // Signing in, out and up.
  'login.tsx',
  'create-account.tsx',
  'create-business-account.tsx',
  'api.business.login.ts',
  'api.business.ts',
  'api.auth.user.ts',
  'api.login.tsx',
  'api.login_.callback.ts',
  'api.login_.link.tsx',
  'api.logout.tsx',
]

let fixture: Fixture
let cookies: Record<Actor, string | undefined>
let request: Awaited<ReturnType<typeof builtRequestHandler>>

beforeAll(async () => {
  request = await builtRequestHandler()
  const owner = await insertBusiness(db)
  const other = await insertBusiness(db)
  const event = await insertTestEvent(owner, { showAdOnDates: [addDaysIso(platformToday(), 3)] })
  const payment = await insertPaidPayment(event.eventID)
  const takenDown = await insertBusiness(db)
  await insertTestEvent(takenDown, {
    showAdOnDates: [addDaysIso(platformToday(), 3)],
    eventStatus: 'taken_down',
  })
  const [record] = await db.insert(ptdisease).values({ mrn: 'MRN-1', disease: 'Influenza' }).returning()
  const messageID = await enqueueMessage(db, {
    kind: 'test',
    to: 'owner@example.com',
    subject: 'A message',
    text: 'Text',
    html: '<p>Text</p>',
  })
  fixture = {
    eventID: event.eventID,
    businessID: owner.businessID,
    takenDownBusinessID: takenDown.businessID,
    paymentID: payment.paymentID,
    recordID: record!.ptdiseaseID,
    messageID: messageID!,
  }
  cookies = {
    anonymous: undefined,
    owner: await sessionCookieFor({ business: owner }),
    otherBusiness: await sessionCookieFor({ business: other }),
    clinician: await sessionCookieFor({ user: await insertUser(db, { roles: ['clinician'] }) }),
    admin: await sessionCookieFor({ user: await insertUser(db, { roles: ['admin'] }) }),
  }
}, BUILD_TIMEOUT_MS)

async function answerOf(route: GuardedRoute, actor: Actor): Promise<Answer> {
  const cookie = cookies[actor]
  const headers: Record<string, string> = cookie ? { Cookie: cookie } : {}
  const init: RequestInit = { method: route.method, headers, redirect: 'manual' }
  if (route.method !== 'GET') {
    headers['Content-Type'] = route.json ? 'application/json' : 'application/x-www-form-urlencoded'
    init.body = route.json ? '{}' : ''
  }
  const res = await request(route.path(fixture), init)
  await res.arrayBuffer()
  const location = res.headers.get('Location')
  if (res.status >= 300 && res.status < 400 && location)
    return `→${new URL(location, 'http://localhost').pathname}`
  return res.status
}

describe('every guarded route answers each kind of visitor as its guard says', () => {
  for (const route of GUARDED)
    test(`${route.method} ${route.file}`, async () => {
      const answers: Expectations = {}
      for (const actor of Object.keys(route.expect) as Actor[]) answers[actor] = await answerOf(route, actor)
      expect(answers).toEqual(route.expect)
    })
})

test('every route file is listed above, as guarded or as public', () => {
  const files = fs.readdirSync(path.resolve('app/routes')).sort()
  const listed = new Set([...GUARDED.map((route) => route.file), ...PUBLIC_ROUTES])
  expect(files.filter((file) => !listed.has(file))).toEqual([])
  expect([...listed].filter((file) => !files.includes(file))).toEqual([])
})
