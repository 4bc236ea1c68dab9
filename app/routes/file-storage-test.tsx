import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useState, type ChangeEvent, type FormEvent } from 'react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { toast } from '#app/components/toaster.tsx'
import { PHOTO_MAX_BYTES, VIDEO_MAX_BYTES } from '#app/constants.ts'
import { listEventsForBusiness } from '#app/models/ads/event.server.ts'
import { requireBusiness } from '#app/services/accounts/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import {
  handleStorageTestUpload,
  storageUploadErrorFields,
} from '#app/services/media/media-test-upload.server.ts'
import { PHOTO_SIZE_MESSAGE, PHOTO_TYPE_MESSAGE } from '#app/utils/media-types.ts'

export const meta: MetaFunction = () => [{ title: 'Media upload test · EventShout' }]

const VIDEO_TYPE_MESSAGE = 'Please select a video file'
const VIDEO_SIZE_MESSAGE = 'File size must be less than 50MB'

export async function loader({ request }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  const events = await listEventsForBusiness(business.businessID)
  return { events: events.map((e) => ({ eventID: e.eventID, eventTitle: e.eventTitle })) }
}

/** Without JavaScript the forms post here and the page shows the storage answer. */
export async function action({ request }: ActionFunctionArgs) {
  await requireBusiness(request)
  const kind = new URL(request.url).searchParams.get('kind') === 'video' ? 'video' : 'photo'
  try {
    const response = await handleStorageTestUpload(request, kind)
    const body = (await response.json()) as { publicUrl: string | null; error: string | null }
    return data({ kind, ...body }, { status: response.status })
  } catch (error) {
    return errorResponse(error, {
      request,
      reply: (refusal) => ({ kind, ...storageUploadErrorFields(refusal) }),
    })
  }
}

/** The spec's client-side checks of the upload test components. */
function checkTestFile(kind: 'photo' | 'video', file: { type: string; size: number }): string | null {
  if (kind === 'photo') {
    if (!file.type.startsWith('image/')) return PHOTO_TYPE_MESSAGE
    if (file.size >= PHOTO_MAX_BYTES) return PHOTO_SIZE_MESSAGE
    return null
  }
  if (!file.type.startsWith('video/')) return VIDEO_TYPE_MESSAGE
  if (file.size >= VIDEO_MAX_BYTES) return VIDEO_SIZE_MESSAGE
  return null
}

function UploadBox({
  kind,
  events,
}: {
  kind: 'photo' | 'video'
  events: Array<{ eventID: number; eventTitle: string }>
}) {
  const field = kind === 'photo' ? 'image' : 'video'
  const [message, setMessage] = useState<string | null>(null)
  const [publicUrl, setPublicUrl] = useState<string | null>(null)

  function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0]
    const problem = file ? checkTestFile(kind, file) : null
    setMessage(problem)
    if (problem) e.target.value = ''
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const endpoint = kind === 'photo' ? '/api/file-storage/upload-image' : '/api/file-storage/upload-video'
    try {
      const res = await fetch(endpoint, {
        method: 'POST',
        body: new FormData(e.currentTarget),
        credentials: 'include',
      })
      const body = (await res.json().catch(() => null)) as {
        publicUrl?: string | null
        error?: string | null
      } | null
      if (res.ok && body?.publicUrl) {
        setPublicUrl(body.publicUrl)
        setMessage(null)
      } else {
        const text = body?.error ?? 'Upload failed'
        setMessage(text)
        toast({ title: 'Upload Test Failed', description: text, variant: 'destructive' })
      }
    } catch {
      toast({ title: 'Upload Test Failed', description: 'Network error', variant: 'destructive' })
    }
  }

  const label = kind === 'photo' ? 'Image' : 'Video'
  return (
    <Form
      method="post"
      action={`?kind=${kind}`}
      encType="multipart/form-data"
      onSubmit={onSubmit}
      className="grid gap-3 rounded-xl border border-slate-200 p-5"
    >
      <h2 className="text-xl font-semibold">{label} upload</h2>
      <p className="text-sm text-slate-600">
        Stored as{' '}
        <code>
          {kind === 'photo' ? 'images' : 'videos'}/yyyy-mm/yyyy-mm-dd_eventID.
          {kind === 'photo' ? 'webp' : 'mp4'}
        </code>
      </p>
      <div>
        <label htmlFor={`${kind}-event`} className="block text-sm font-medium">
          Event
        </label>
        <select
          id={`${kind}-event`}
          name="eventID"
          required
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
        >
          {events.map((e) => (
            <option key={e.eventID} value={e.eventID}>
              #{e.eventID} {e.eventTitle}
            </option>
          ))}
        </select>
      </div>
      <input type="hidden" name="createdDate" value={new Date().toISOString().slice(0, 10)} />
      <div>
        <label htmlFor={`${kind}-file`} className="block text-sm font-medium">
          {label} file
        </label>
        <input
          id={`${kind}-file`}
          name={field}
          type="file"
          required
          accept={kind === 'photo' ? 'image/*' : 'video/*'}
          onChange={onFile}
          className="mt-1 block text-sm"
        />
      </div>
      {message ? (
        <p role="alert" className="text-sm text-red-700">
          {message}
        </p>
      ) : null}
      {publicUrl ? (
        <p className="text-sm">
          Uploaded:{' '}
          <a href={publicUrl} className="text-brand-700 underline">
            {publicUrl}
          </a>
        </p>
      ) : null}
      <button
        type="submit"
        disabled={events.length === 0}
        className="justify-self-start rounded-md bg-brand-600 px-4 py-2 font-semibold text-white disabled:opacity-60"
      >
        Upload {label.toLowerCase()}
      </button>
    </Form>
  )
}

export default function FileStorageTestPage() {
  const { events } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  return (
    <main className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-3xl font-bold">Media upload test (file storage)</h1>
      <p className="mt-1 text-slate-600">
        Files are stored as <code>images|videos/year-month/year-month-day_eventID.extension</code>.
      </p>
      {events.length === 0 ? <p className="mt-4">Create an event first to test uploads.</p> : null}
      {result ? (
        <p role={result.error ? 'alert' : 'status'} className="mt-4 rounded-md bg-slate-50 px-3 py-2">
          {result.error ? (
            result.error
          ) : (
            <>
              Uploaded:{' '}
              <a href={result.publicUrl ?? '#'} className="text-brand-700 underline">
                {result.publicUrl}
              </a>
            </>
          )}
        </p>
      ) : null}
      <div className="mt-6 grid gap-6 md:grid-cols-2">
        <UploadBox kind="photo" events={events} />
        <UploadBox kind="video" events={events} />
      </div>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
