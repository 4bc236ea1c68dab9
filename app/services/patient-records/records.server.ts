/**
 * The clinical tool's records as its pages and its JSON call use them: the schemas the server trusts, who the audit
 * records, the record a URL names, and the page forms' create, update and delete. The rules themselves live in the
 * model and the schema.
 */
import { z } from 'zod'
import type { SessionUser } from '#app/models/accounts/user.server.ts'
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
  PTDISEASE_MESSAGES,
} from '#app/models/patient-records/ptdisease-schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { logError } from '../platform/logger.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'

/**
 * The schemas the server trusts (the browser's copies are only an enhancement), with the platform's "today", so
 * "date of birth in the future" means the same for every clinician.
 */
export const ptdiseaseServerSchema = buildPtdiseaseSchema(platformToday)
export const ptdiseaseIntentServerSchema = buildPtdiseaseIntentSchema(platformToday)

/** What the JSON call answers a signed-out caller. */
export const SIGN_IN_FOR_RECORDS = 'Sign in to use patient records'

export type PtdiseaseFormValue = z.output<typeof ptdiseaseIntentServerSchema>

export function auditActor(user: Pick<SessionUser, 'id' | 'email'>): AuditActor {
  return { id: user.id, email: user.email }
}

/** A record id that names no record. */
export function recordNotFoundError() {
  return new AppError(PTDISEASE_MESSAGES.notFound, 'not_found')
}

/** The record a URL's id names (its view is audited), or null when the id is not one or names no record. */
export async function ptdiseaseOf(idParam: string | undefined, actor: AuditActor) {
  const id = parsePtdiseaseId(idParam)
  return id === null ? null : getPtdisease(id, actor)
}

/** The list page a dialog came from (its search and page kept), where it goes back to. */
export function ptdiseaseListPath(query: URLSearchParams): string {
  const params = new URLSearchParams()
  const search = normaliseSearch(query.get('search'))
  if (search) params.set('search', search)
  const page = query.get('page')
  if (page && /^\d{1,6}$/.test(page) && Number(page) > 1) params.set('page', page)
  const text = params.toString()
  return `/patient-diseases${text ? `?${text}` : ''}`
}

/**
 * Does what a page form's `intent` asks (create, update or delete) and returns what the clinician is told. A dialog's
 * form must name the record of its own address (an invalid refusal otherwise); a record that is gone is not found.
 */
export async function savePtdiseaseForm(
  value: PtdiseaseFormValue,
  { pageId, actor }: { pageId: string | undefined; actor: AuditActor },
): Promise<string> {
  if (value.intent !== 'create' && pageId !== undefined && parsePtdiseaseId(pageId) !== value.id) {
    throw new AppError(PTDISEASE_MESSAGES.idMismatch, 'invalid')
  }
  switch (value.intent) {
    case 'create': {
      const { intent: _intent, ...fields } = value
      await createPtdisease(fields, actor)
      return PTDISEASE_MESSAGES.created
    }
    case 'update': {
      const { intent: _intent, id, ...fields } = value
      if (!(await updatePtdisease(id, fields, actor))) throw recordNotFoundError()
      return PTDISEASE_MESSAGES.updated
    }
    case 'delete':
      if (!(await deletePtdisease(value.id, actor))) throw recordNotFoundError()
      return PTDISEASE_MESSAGES.deleted
  }
}

/** An invalid refusal: `Validation failed: …` with the messages per field. */
export function validationFailed(error: z.ZodError) {
  const fieldErrors = z.flattenError(error).fieldErrors as Record<string, string[]>
  const messages = [...new Set(error.issues.map((issue) => issue.message))]
  return new AppError(`Validation failed: ${messages.join('; ')}`, 'invalid', { fieldErrors })
}

/**
 * Logs an unexpected failure of the JSON call: a failed query as the model scrubbed it, anything else by its type and
 * where it happened, never its message (it could quote a request body).
 */
export function logPtdiseaseFailure(error: unknown) {
  if (error instanceof PtdiseaseStoreError) {
    logError(error)
    return
  }
  const name = error instanceof Error ? error.name : typeof error
  const withheld = new Error(`Unexpected ${name} in /api/ptdisease`)
  withheld.name = name
  const frames = error instanceof Error ? (error.stack ?? '').split('\n').slice(1).join('\n') : ''
  withheld.stack = `${name}\n${frames}`
  logError(withheld)
}
