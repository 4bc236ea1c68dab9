import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useState, type FormEvent } from 'react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { toast } from '#app/components/toaster.tsx'
import { listCategories } from '#app/models/ads/category.server.ts'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import { DEMO_UPLOAD, saveDemoEvent } from '#app/services/ads/demo.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { readMultipartUpload } from '#app/services/http/multipart-upload.server.ts'
import { mediaUpload } from '#app/services/media/media-upload.server.ts'

export const meta: MetaFunction = () => [{ title: 'Business Event Creation Card · EventShout' }]

const FAILED = 'Failed to create event. Please try again.'

export async function loader({ request }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  const categories = (await listCategories()).map((c) => c.categoryName)
  return { business, categories }
}

export async function action({ request }: ActionFunctionArgs) {
  const business = await requireBusiness(request)
  let saved
  try {
    saved = await saveDemoEvent(business, await readMultipartUpload(request, mediaUpload(DEMO_UPLOAD)))
  } catch (error) {
    return errorResponse(error, { request, reply: (refusal) => ({ message: `Error: ${refusal.message}` }) })
  }
  return redirectWithToast(`/event/${saved.eventID}`, { title: 'Event created', description: saved.message })
}

export default function DemoPage() {
  const { business, categories } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [busy, setBusy] = useState(false)

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    setBusy(true)
    try {
      const res = await fetch('/api/business-event', {
        method: 'POST',
        body: new FormData(e.currentTarget),
        credentials: 'include',
      })
      const body = (await res.json().catch(() => null)) as { eventID?: number; message?: string } | null
      if (res.ok && body?.eventID) {
        toast({
          title: 'Event created',
          description: `${body.message ?? 'Event created'} (event #${body.eventID})`,
        })
        e.currentTarget?.reset()
      } else {
        toast({
          title: 'Error',
          description: body?.message ? `Error: ${body.message}` : FAILED,
          variant: 'destructive',
        })
      }
    } catch {
      toast({ title: 'Error', description: FAILED, variant: 'destructive' })
    } finally {
      setBusy(false)
    }
  }

  const pending = busy || navigation.state === 'submitting'
  return (
    <main className="mx-auto max-w-xl px-4 py-8">
      <h1 className="text-3xl font-bold">Business Event Creation Card</h1>
      <p className="mt-1 text-slate-600">
        A quick way to create an event for {business.businessName}; it shows today.
      </p>
      {actionData?.message ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-red-800">
          {actionData.message}
        </p>
      ) : null}
      <Form method="post" encType="multipart/form-data" onSubmit={onSubmit} className="mt-6 grid gap-4">
        <input type="hidden" name="businessID" value={business.businessID} />
        {(
          [
            ['eventTitle', 'Event title', 'text', true],
            ['contactPerson', 'Contact person', 'text', false],
            ['contactPhone', 'Contact phone', 'tel', false],
            ['contactEmail', 'Contact email', 'email', false],
          ] as const
        ).map(([name, label, type, required]) => (
          <div key={name}>
            <label htmlFor={name} className="block font-medium">
              {label}
            </label>
            <input
              id={name}
              name={name}
              type={type}
              required={required}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            />
          </div>
        ))}
        <div>
          <label htmlFor="eventDescription" className="block font-medium">
            Description
          </label>
          <textarea
            id="eventDescription"
            name="eventDescription"
            required
            maxLength={500}
            rows={4}
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
          />
        </div>
        <div>
          <label htmlFor="eventCategory" className="block font-medium">
            Category
          </label>
          <select
            id="eventCategory"
            name="eventCategory"
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
          >
            {categories.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="image" className="block font-medium">
            Image
          </label>
          <input id="image" name="image" type="file" accept="image/*" className="mt-1 block text-sm" />
        </div>
        <div>
          <label htmlFor="video" className="block font-medium">
            Video
          </label>
          <input id="video" name="video" type="file" accept="video/*" className="mt-1 block text-sm" />
        </div>
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white disabled:opacity-60"
        >
          {pending ? 'Creating...' : 'Create Event'}
        </button>
      </Form>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
