/**
 * HTTP glue shared by the /patient-diseases pages and /api/ptdisease: clinician guards, the no-store rule,
 * and the page forms' intent dispatch. The rules themselves live in the model and the schema.
 */
import { data, type ActionFunctionArgs, type HeadersFunction } from '@remix-run/node'
import { z } from 'zod'
import {
  createPtdisease,
  deletePtdisease,
  getPtdisease,
  normaliseSearch,
  parsePtdiseaseId,
  PtdiseaseStoreError,
  updatePtdisease,
  type AuditActor,
} from '#app/models/patient-records/ptdisease.server.ts'
import {
  buildPtdiseaseIntentSchema,
  buildPtdiseaseSchema,
  isPtdiseaseIntent,
  PTDISEASE_MESSAGES,
} from '#app/models/patient-records/ptdisease-schema.ts'
import { requireRole, type SessionUser } from '../accounts/auth.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { parseFormSubmission, type SubmissionResult } from '../http/form-submission.server.ts'
import { combineHeaders, errorResponse } from '../http/http.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { redirectWithToast } from '../http/toast.server.ts'
import { readFormData } from '../http/request-body.server.ts'

/**
 * The schemas the server trusts (the browser's copies are only an enhancement), with the platform's "today", so
 * "date of birth in the future" means the same for every clinician.
 */
export const ptdiseaseServerSchema = buildPtdiseaseSchema(platformToday)
export const ptdiseaseIntentServerSchema = buildPtdiseaseIntentSchema(platformToday)

/** Patient data must never sit in a browser or proxy cache. */
export const NO_STORE = { 'Cache-Control': 'no-store' } as const

/** For the `headers` export of every patient-record page (document and data requests alike). */
export const noStoreHeaders: HeadersFunction = () => NO_STORE

export function auditActor(user: SessionUser): AuditActor {
  return { id: user.id, email: user.email }
}

/** Pages: signed out → redirect to sign-in; signed in without the clinician role → 403. */
export function requireClinician(request: Request) {
  return requireRole(request, 'clinician')
}

/** The API answers in JSON: signed out → 401 (no redirect to a sign-in page); no clinician role → 403. */
/** A page's 404 (not cached): thrown, its error boundary shows it. */
export function recordNotFound() {
  return errorResponse(new AppError(PTDISEASE_MESSAGES.notFound, 'not_found'), { headers: NO_STORE })
}

/** The record id in the URL, or a 404 (not cached) for anything that is not one. */
export function requirePtdiseaseId(param: string | undefined): number {
  const id = parsePtdiseaseId(param)
  if (id === null) throw recordNotFound()
  return id
}

/** The signed-in clinician and the record the URL names (the view is audited), or a 404. */
export async function requireClinicianRecord(request: Request, param: string | undefined) {
  const user = await requireClinician(request)
  const record = await getPtdisease(requirePtdiseaseId(param), auditActor(user))
  if (!record) throw recordNotFound()
  return { user, record }
}

export async function requireClinicianApi(request: Request) {
  try {
    return await requireRole(request, 'clinician')
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      throw new AppError('Sign in to use patient records', 'unauthenticated')
    }
    throw thrown
  }
}

/** The list page the user came from, with its search and page kept. */
export function listLocation(request: Request): string {
  const url = new URL(request.url)
  const params = new URLSearchParams()
  const search = normaliseSearch(url.searchParams.get('search'))
  if (search) params.set('search', search)
  const page = url.searchParams.get('page')
  if (page && /^\d{1,6}$/.test(page) && Number(page) > 1) params.set('page', page)
  const query = params.toString()
  return `/patient-diseases${query ? `?${query}` : ''}`
}

export interface PtdiseaseActionData {
  message: string
  result: SubmissionResult<string[]> | null
}

/**
 * The action of /patient-diseases and of its new/edit/delete pages: `intent` picks create, update or delete.
 * Success redirects to the list with a toast (which closes a dialog); bad input re-renders the form (400).
 */
export async function handlePtdiseaseFormAction({
  request,
  params,
}: Pick<ActionFunctionArgs, 'request' | 'params'>) {
  const user = await requireClinician(request)
  // A body the reader refuses (413/415/400) is shown by the page's error boundary, not cached.
  const formData = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request, headers: NO_STORE })
  })
  if (!isPtdiseaseIntent(formData.get('intent'))) {
    return data<PtdiseaseActionData>(
      { message: PTDISEASE_MESSAGES.unknownIntent, result: null },
      { status: 400, headers: NO_STORE },
    )
  }
  const submission = parseFormSubmission(formData, ptdiseaseIntentServerSchema, { disableAutoCoercion: true })
  if (submission.status !== 'success') {
    return data<PtdiseaseActionData>(
      {
        message: PTDISEASE_MESSAGES.invalidForm,
        result: submission.reply({ formErrors: [PTDISEASE_MESSAGES.invalidForm] }),
      },
      { status: 400, headers: NO_STORE },
    )
  }

  const value = submission.value
  if (value.intent !== 'create' && params.id !== undefined && parsePtdiseaseId(params.id) !== value.id) {
    return data<PtdiseaseActionData>(
      {
        message: PTDISEASE_MESSAGES.idMismatch,
        result: submission.reply({ formErrors: [PTDISEASE_MESSAGES.idMismatch] }),
      },
      { status: 400, headers: NO_STORE },
    )
  }

  const back = listLocation(request)
  const actor = auditActor(user)
  const notFound = () =>
    redirectWithToast(
      back,
      { title: 'Error', description: PTDISEASE_MESSAGES.notFound, variant: 'destructive' },
      { headers: NO_STORE },
    )
  const success = (description: string) =>
    redirectWithToast(back, { title: 'Success', description }, { headers: NO_STORE })

  switch (value.intent) {
    case 'create': {
      const { intent: _intent, ...fields } = value
      await createPtdisease(fields, actor)
      return success(PTDISEASE_MESSAGES.created)
    }
    case 'update': {
      const { intent: _intent, id, ...fields } = value
      return (await updatePtdisease(id, fields, actor)) ? success(PTDISEASE_MESSAGES.updated) : notFound()
    }
    case 'delete':
      return (await deletePtdisease(value.id, actor)) ? success(PTDISEASE_MESSAGES.deleted) : notFound()
  }
}

// ---------------------------------------------------------------------------------------------------------------
// /api/ptdisease

/** Logs where a failure happened, never the message of an unknown error (it could quote a request body). */
function logSafely(error: unknown) {
  if (error instanceof PtdiseaseStoreError) {
    console.error(error)
    return
  }
  const name = error instanceof Error ? error.name : typeof error
  const frames = error instanceof Error ? (error.stack ?? '').split('\n').slice(1).join('\n') : ''
  console.error(`Unexpected ${name} in /api/ptdisease\n${frames}`)
}

/**
 * Runs an API handler: what it throws (AppErrors 400/401/404/405/413/415, the guard's 403) is answered by the one
 * conversion, an unexpected failure logged without its message, and every answer is no-store.
 */
export async function ptdiseaseApi(run: () => Promise<Response>): Promise<Response> {
  try {
    const response = await run()
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: combineHeaders(response.headers, NO_STORE),
    })
  } catch (thrown) {
    return errorResponse(thrown, { headers: NO_STORE, log: logSafely })
  }
}

/** The 404 of a record id that names no record. */
export function recordNotFoundError() {
  return new AppError(PTDISEASE_MESSAGES.notFound, 'not_found')
}

/** A 400 AppError: `{ message, errors: { field: [messages] } }`. */
export function validationFailed(error: z.ZodError) {
  const fieldErrors = z.flattenError(error).fieldErrors as Record<string, string[]>
  const messages = [...new Set(error.issues.map((issue) => issue.message))]
  return new AppError(`Validation failed: ${messages.join('; ')}`, 'invalid', { fieldErrors })
}
