import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useState, type ChangeEvent, type FormEvent } from 'react'
import { useCheckedForm, type FormReply } from '#app/components/checked-form.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { FormField } from '#app/components/form-field.tsx'
import { toast } from '#app/components/toaster.tsx'
import { zodCheck } from '#app/components/zod-check.ts'
import { PHOTO_MAX_BYTES, VIDEO_MAX_BYTES, type MediaType } from '#app/constants.ts'
import { listEventsForBusiness } from '#app/models/ads/event.server.ts'
import { storageUploadSchema } from '#app/models/ads/storage-upload-schema.ts'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { discardRequestBody, readMultipartUpload } from '#app/services/http/multipart-upload.server.ts'
import { mediaUpload } from '#app/services/media/media-upload.server.ts'
import { storeUploadForOwnEvent } from '#app/services/media/media-test-upload.server.ts'
import { methodNotAllowed, type AppError } from '#app/utils/app-error.ts'
import { PHOTO_SIZE_MESSAGE, PHOTO_TYPE_MESSAGE, VIDEO_TYPE_MESSAGE } from '#app/utils/media-types.ts'

export const meta: MetaFunction = () => [{ title: 'Media upload test · EventShout' }]

const VIDEO_SIZE_MESSAGE = 'File size must be less than 50MB'

/** The file field of each kind of upload. */
const FILE_FIELD = { photo: 'image', video: 'video' } as const satisfies Record<MediaType, string>

export async function loader({ request }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  const events = await listEventsForBusiness(business.businessID)
  return { events: events.map((e) => ({ eventID: e.eventID, eventTitle: e.eventTitle })) }
}

/** A refusal as the reply the form renders: at the fields it names, otherwise the form's own. */
function refusalReply(refusal: AppError, sent: Record<string, string> | null): FormReply {
  const named = Object.keys(refusal.fieldErrors).length > 0
  return { initialValue: sent, error: named ? refusal.fieldErrors : { '': [refusal.message] } }
}

/** Without JavaScript the forms post here: the page shows the stored file's URL, or the refusal in its form. */
export async function action({ request }: ActionFunctionArgs) {
  const { businessID } = await requireBusiness(request)
  const kind: MediaType = new URL(request.url).searchParams.get('kind') === 'video' ? 'video' : 'photo'
  let sent: Record<string, string> | null = null
  try {
    if (request.method !== 'POST') {
      discardRequestBody(request)
      throw methodNotAllowed('POST')
    }
    const upload = await readMultipartUpload(request, mediaUpload({ files: { [FILE_FIELD[kind]]: kind } }))
    sent = upload.fields
    const stored = await storeUploadForOwnEvent({ businessID, kind, upload })
    return data({ kind, result: null, publicUrl: stored.url })
  } catch (error) {
    return errorResponse(error, {
      request,
      reply: (refusal) => ({ kind, result: refusalReply(refusal, sent), publicUrl: null }),
    })
  }
}

/** The client-side checks of the upload test components. */
function checkTestFile(kind: MediaType, file: { type: string; size: number }): string | null {
  if (kind === 'photo') {
    if (!file.type.startsWith('image/')) return PHOTO_TYPE_MESSAGE
    if (file.size >= PHOTO_MAX_BYTES) return PHOTO_SIZE_MESSAGE
    return null
  }
  if (!file.type.startsWith('video/')) return VIDEO_TYPE_MESSAGE
  if (file.size >= VIDEO_MAX_BYTES) return VIDEO_SIZE_MESSAGE
  return null
}

const checkUpload = zodCheck(storageUploadSchema)
const control = 'mt-1 w-full rounded-md border border-slate-300 px-3 py-2'

function UploadBox({
  kind,
  events,
  reply,
}: {
  kind: MediaType
  events: Array<{ eventID: number; eventTitle: string }>
  reply: FormReply | null
}) {
  const fileField = FILE_FIELD[kind]
  // The file's own check (type and size as the browser sees them), and the answer of an upload sent with JavaScript.
  const [fileProblem, setFileProblem] = useState<string | null>(null)
  const [answered, setAnswered] = useState<FormReply | null>(null)
  const [publicUrl, setPublicUrl] = useState<string | null>(null)
  const { formProps, field, formErrors, formErrorId } = useCheckedForm({
    id: `${kind}-upload`,
    reply: answered ?? reply,
    check: checkUpload,
    browserChecksWithoutJs: true,
  })
  const eventID = field('eventID')
  const file = field(fileField)

  function onFile(e: ChangeEvent<HTMLInputElement>) {
    const chosen = e.target.files?.[0]
    const problem = chosen ? checkTestFile(kind, chosen) : null
    setFileProblem(problem)
    if (problem) e.target.value = ''
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    formProps.onSubmit(e)
    if (e.defaultPrevented) return
    e.preventDefault()
    const form = e.currentTarget
    const input = form.elements.namedItem(fileField)
    if (input instanceof HTMLInputElement && !input.files?.length) {
      setFileProblem(kind === 'photo' ? PHOTO_TYPE_MESSAGE : VIDEO_TYPE_MESSAGE)
      input.focus()
      return
    }
    const endpoint = kind === 'photo' ? '/api/file-storage/upload-image' : '/api/file-storage/upload-video'
    try {
      const res = await fetch(endpoint, { method: 'POST', body: new FormData(form), credentials: 'include' })
      const body = (await res.json().catch(() => null)) as {
        publicUrl?: string | null
        error?: string | null
      } | null
      if (res.ok && body?.publicUrl) {
        setPublicUrl(body.publicUrl)
        setAnswered({ error: null })
        setFileProblem(null)
      } else {
        const text = body?.error ?? 'Upload failed'
        setAnswered({ error: { '': [text] } })
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
      {...formProps}
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
      {formErrors.length ? (
        <p id={formErrorId} role="alert" className="text-sm text-red-700">
          {formErrors.join(' ')}
        </p>
      ) : null}
      <FormField field={eventID} label="Event">
        {(props) => (
          <select {...eventID.inputProps} {...props} required className={control}>
            {events.map((e) => (
              <option key={e.eventID} value={e.eventID}>
                #{e.eventID} {e.eventTitle}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <input type="hidden" name="createdDate" value={new Date().toISOString().slice(0, 10)} />
      <FormField
        field={{ ...file, errors: fileProblem ? [fileProblem] : file.errors }}
        label={`${label} file`}
      >
        {(props) => (
          <input
            {...props}
            name={fileField}
            type="file"
            required
            accept={kind === 'photo' ? 'image/*' : 'video/*'}
            onChange={onFile}
            className="mt-1 block text-sm"
          />
        )}
      </FormField>
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
  const answer = useActionData<typeof action>()
  return (
    <main className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-3xl font-bold">Media upload test (file storage)</h1>
      <p className="mt-1 text-slate-600">
        Files are stored as <code>images|videos/year-month/year-month-day_eventID.extension</code>.
      </p>
      {events.length === 0 ? <p className="mt-4">Create an event first to test uploads.</p> : null}
      {answer?.publicUrl ? (
        <p role="status" className="mt-4 rounded-md bg-slate-50 px-3 py-2">
          Uploaded:{' '}
          <a href={answer.publicUrl} className="text-brand-700 underline">
            {answer.publicUrl}
          </a>
        </p>
      ) : null}
      <div className="mt-6 grid gap-6 md:grid-cols-2">
        {(['photo', 'video'] as const).map((kind) => (
          <UploadBox
            key={kind}
            kind={kind}
            events={events}
            reply={answer?.kind === kind ? answer.result : null}
          />
        ))}
      </div>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
