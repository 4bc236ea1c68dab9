import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import {
  deletePtdisease,
  getPtdisease,
  parsePtdiseaseId,
  patchPtdisease,
} from '#app/models/patient-records/ptdisease.server.ts'
import { answerCall, requireRoleForJson } from '#app/services/http/json-calls.server.ts'
import { NO_STORE } from '#app/services/http/no-store.server.ts'
import { readJsonObject } from '#app/services/http/request-body.server.ts'
import {
  auditActor,
  logPtdiseaseFailure,
  recordNotFoundError,
  SIGN_IN_FOR_RECORDS,
  validationFailed,
} from '#app/services/patient-records/records.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { methodNotAllowed } from '#app/utils/app-error.ts'

/** Every answer is no-store; an unexpected failure is logged without its message. */
const ANSWERS = { headers: NO_STORE, log: logPtdiseaseFailure }

function recordId(params: LoaderFunctionArgs['params']) {
  const id = parsePtdiseaseId(params.id)
  if (id === null) throw recordNotFoundError()
  return id
}

/** GET /api/ptdisease/{id} — one record. */
export function loader({ request, params }: LoaderFunctionArgs) {
  return answerCall(async () => {
    const user = await requireRoleForJson(request, 'clinician', SIGN_IN_FOR_RECORDS)
    const record = await getPtdisease(recordId(params), auditActor(user))
    if (!record) throw recordNotFoundError()
    return Response.json(record)
  }, ANSWERS)
}

/**
 * PATCH /api/ptdisease/{id} — the fields sent replace the stored ones; the merged record is validated as a
 * whole (so "last reviewed not before date entered" holds across old and new values) and the computed
 * fields are derived again. DELETE /api/ptdisease/{id} — 204.
 */
export function action({ request, params }: ActionFunctionArgs) {
  return answerCall(async () => {
    if (request.method !== 'PATCH' && request.method !== 'DELETE')
      throw methodNotAllowed('GET, PATCH, DELETE')
    const user = await requireRoleForJson(request, 'clinician', SIGN_IN_FOR_RECORDS)
    const id = recordId(params)
    const actor = auditActor(user)

    if (request.method === 'DELETE') {
      if (!(await deletePtdisease(id, actor))) throw recordNotFoundError()
      return new Response(null, { status: 204 })
    }

    const result = await patchPtdisease(id, await readJsonObject(request), actor, { today: platformToday() })
    if (result.status === 'invalid') throw validationFailed(result.error)
    if (result.status === 'not-found') throw recordNotFoundError()
    return Response.json(result.record)
  }, ANSWERS)
}
