/**
 * A form posted without JavaScript as a streamed upload, whose checked post waits in the session for the next page
 * (the event form: its draft waits for the preview). The domain says how the post is read, checked and kept; this
 * reads the request and answers.
 */
import { redirect } from '@remix-run/node'
import { refusalReply } from './form-submission.server.ts'
import { errorResponse } from './http.server.ts'
import {
  readMultipartUpload,
  type MultipartUpload,
  type MultipartUploadOptions,
} from './multipart-upload.server.ts'
import { getSession, sessionStorage } from './session.server.ts'

type Session = Awaited<ReturnType<typeof getSession>>

export interface StagedFormPost<T, V> {
  /** How the body is read and its files received. */
  upload: MultipartUploadOptions<T>
  /** Checks the post and keeps it in the session; throws an AppError to refuse it. */
  stage(post: MultipartUpload<T>, session: Session): Promise<void>
  /** What was typed, as the form's values, shown again with a refusal. */
  typed(post: MultipartUpload<T>): V
  /** Where a refusal is shown when the body could not be read (the form then comes back empty). */
  unreadField: string
}

/**
 * Reads and stages the post of `form`, then redirects to `next` with the session saved. A refusal comes back to the
 * form as its reply (`{ result }`), with what was typed.
 */
export async function stageFormPost<T, V>(request: Request, form: StagedFormPost<T, V>, next: string) {
  const session = await getSession(request)
  let post: MultipartUpload<T> | null = null
  try {
    post = await readMultipartUpload(request, form.upload)
    await form.stage(post, session)
    return redirect(next, { headers: { 'Set-Cookie': await sessionStorage.commitSession(session) } })
  } catch (error) {
    const typed = post && form.typed(post)
    return errorResponse(error, {
      request,
      reply: (refusal) => ({ result: refusalReply(refusal, typed, typed ? '' : form.unreadField) }),
    })
  }
}
