import type { MetaFunction } from '@remix-run/node'
import { MAX_DISPLAY_DATES, MIN_AD_DAYS_MARKETING, PRODUCT_NAME, TAGLINE } from '#app/constants.ts'
import { sharedPageHeaders } from '#app/services/http/page-cache.server.ts'

export const handle = { hydrate: false }
export const headers = sharedPageHeaders

export const meta: MetaFunction = () => [
  { title: `${PRODUCT_NAME} — promote your local event in minutes` },
  {
    name: 'description',
    content:
      'Promote your concert, fundraiser, grand opening or special gathering in minutes. Photos and videos, flexible ad periods, featured for 7 or more days.',
  },
]

const steps = [
  { n: 1, title: 'Login', text: 'Sign in with your account, or create one in a minute.' },
  {
    n: 2,
    title: 'Add Event',
    text: 'Title, description, dates, a photo and an optional video. Preview it exactly as customers will see it.',
  },
  {
    n: 3,
    title: 'Get Featured',
    text: 'Pay by card. Once approved, your ad appears on the public events page and calendar.',
  },
]

const benefits = [
  { title: 'Easy posting', text: 'A short form and a live preview — no design skills needed.' },
  {
    title: 'Photos and videos',
    text: 'Show your venue, your band or your special with a still photo and a video.',
  },
  {
    title: 'Flexible periods',
    text: `Pick exactly the days your ad runs, up to ${MAX_DISPLAY_DATES} days per ad.`,
  },
  { title: 'Automatic cleanup', text: 'Ads leave the listings by themselves once their dates have passed.' },
]

export default function Landing() {
  return (
    <main>
      <section className="bg-gradient-to-br from-brand-50 to-white">
        <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 md:grid-cols-[1.4fr_1fr] md:items-center">
          <div>
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{TAGLINE}</p>
            <h1 className="mt-3 text-4xl font-black tracking-tight text-ink md:text-5xl">
              Promote your concert, fundraiser, grand opening or special gathering in minutes
            </h1>
            <p className="mt-5 text-lg text-slate-700">
              {PRODUCT_NAME} puts local events in front of local people. Post your ad with photos and videos,
              choose the days it runs, and get featured for {MIN_AD_DAYS_MARKETING} or more days on our public
              events page and calendar.
            </p>
            <p className="mt-6 flex flex-wrap gap-3">
              <a href="/public" className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium">
                Browse events
              </a>
              <a
                href="/calendar"
                className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium"
              >
                Open the calendar
              </a>
            </p>
          </div>
          <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <h2 className="text-2xl font-bold text-ink">Get Started Today</h2>
            <p className="mt-2 text-slate-600">Sign in to create your first event ad.</p>
            <a
              href="/api/login"
              className="mt-5 block rounded-md bg-brand-600 px-4 py-3 text-center font-semibold text-white hover:bg-brand-700"
            >
              Login
            </a>
            <p className="mt-4 text-sm text-slate-600">
              If you are redirected to our sign-in provider&apos;s page, click <strong>Log in</strong> there
              to continue. New users get an account automatically.
            </p>
            <p className="mt-3 text-sm text-slate-600">
              Prefer email and password?{' '}
              <a href="/login" className="font-medium text-brand-700 underline">
                Business sign in
              </a>
              {' · '}
              <a href="/create-account" className="font-medium text-brand-700 underline">
                Create an account
              </a>
            </p>
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-14" aria-labelledby="how-it-works">
        <h2 id="how-it-works" className="text-3xl font-bold text-ink">
          How It Works
        </h2>
        <ol className="mt-8 grid gap-6 md:grid-cols-3">
          {steps.map((step) => (
            <li key={step.n} className="rounded-xl border border-slate-200 p-6">
              <span className="grid size-10 place-items-center rounded-full bg-brand-600 text-lg font-bold text-white">
                {step.n}
              </span>
              <h3 className="mt-4 text-xl font-semibold">{step.title}</h3>
              <p className="mt-2 text-slate-600">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="bg-slate-50" aria-labelledby="why-choose">
        <div className="mx-auto max-w-6xl px-4 py-14">
          <h2 id="why-choose" className="text-3xl font-bold text-ink">
            Why Choose Our Platform
          </h2>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {benefits.map((b) => (
              <li key={b.title} className="rounded-xl bg-white p-6 shadow-sm">
                <h3 className="font-semibold text-ink">{b.title}</h3>
                <p className="mt-2 text-sm text-slate-600">{b.text}</p>
              </li>
            ))}
          </ul>
          <p className="mt-8 text-slate-700">
            Ads are featured for {MIN_AD_DAYS_MARKETING} or more days — you choose the dates.
          </p>
        </div>
      </section>
    </main>
  )
}
