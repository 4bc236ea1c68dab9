import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { CustomerEventCard } from '#app/components/customer-event-card.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { customerCardData } from '#app/models/ads/customer-card.ts'
import { requireBusiness } from '#app/services/http/auth.server.ts'

export const handle = { hydrate: false }

export const meta: MetaFunction = () => [{ title: `Customer View Demo · ${PRODUCT_NAME}` }]

/** Static sample: every social link filled, so advertisers see all the card can show. */
const SAMPLE_EVENT = customerCardData(
  {
    businessName: 'Maple Street Music Hall',
    businessAddress: '418 Maple Street',
    businessCity: 'Springfield',
    businessState: 'IL',
    businessZip: '62704',
    businessPhone: '2175550148',
    businessEmail: 'hello@maplestreetmusic.example',
    businessContact: 'Jordan Rivera',
    businessWebsite: 'https://maplestreetmusic.example',
    facebookURL: 'https://www.facebook.com/maplestreetmusichall',
    instagramURL: 'https://www.instagram.com/maplestreetmusichall',
    linkedin: 'https://www.linkedin.com/company/maplestreetmusichall',
    youtubeURL: 'https://www.youtube.com/@maplestreetmusichall',
    xURL: 'https://x.com/maplestreetmusic',
    tiktokURL: 'https://www.tiktok.com/@maplestreetmusichall',
  },
  {
    eventTitle: 'Friday Night Jazz & Blues',
    eventDescription:
      'Live jazz and blues from the Prairie Street Quartet, with local craft drinks and small plates. Doors open at 7 pm, music from 8 pm. All ages welcome until 10 pm.',
  },
)

export async function loader({ request }: LoaderFunctionArgs) {
  await requireBusiness(request)
  return null
}

export default function CustomerViewDemo() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-3xl font-bold text-ink">Customer View Demo</h1>
      <p className="mt-2 text-slate-600">
        A sample event ad as customers see it, with every link a business can add. The buttons are inactive on
        this sample.
      </p>
      <div className="mt-6">
        <CustomerEventCard
          event={SAMPLE_EVENT}
          mode="normal"
          approve={{ disabled: true }}
          reject={{ disabled: true }}
        />
      </div>
      <p className="mt-6">
        <Link to="/dashboard" className="font-medium text-brand-700 underline">
          Back to the dashboard
        </Link>
      </p>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
