import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import {
  deletePtdisease,
  getPtdisease,
  parsePtdiseaseId,
  patchPtdisease,
} from '#app/models/ptdisease.server.ts'
import { PTDISEASE_MESSAGES } from '#app/models/ptdisease-schema.ts'
import { jsonError, methodNotAllowed } from '#app/services/http.server.ts'
import { platformToday } from '#app/services/platform-today.server.ts'
import { readJsonObject } from '#app/services/request-body.server.ts'
import {
  auditActor,
  ptdiseaseApi,
  requireClinicianApi,
  validationFailed,
} from '#app/services/ptdisease-http.server.ts'

function recordId(params: LoaderFunctionArgs['params']) {
  const id = parsePtdiseaseId(params.id)
  if (id === null) throw jsonError(PTDISEASE_MESSAGES.notFound, 404)
  return id
}

/** GET /api/ptdisease/{id} — one record. */
export function loader({ request, params }: LoaderFunctionArgs) {
  return ptdiseaseApi(async () => {
    const user = await requireClinicianApi(request)
    const record = await getPtdisease(recordId(params), auditActor(user))
    return record ? Response.json(record) : jsonError(PTDISEASE_MESSAGES.notFound, 404)
  })
}

/**
 * PATCH /api/ptdisease/{id} — the fields sent replace the stored ones; the merged record is validated as a
 * whole (so "last reviewed not before date entered" holds across old and new values) and the computed
 * fields are derived again. DELETE /api/ptdisease/{id} — 204.
 */
export function action({ request, params }: ActionFunctionArgs) {
  return ptdiseaseApi(async () => {
    if (request.method !== 'PATCH' && request.method !== 'DELETE')
      return methodNotAllowed('GET, PATCH, DELETE')
    const user = await requireClinicianApi(request)
    const id = recordId(params)
    const actor = auditActor(user)

    if (request.method === 'DELETE') {
      const deleted = await deletePtdisease(id, actor)
      return deleted ? new Response(null, { status: 204 }) : jsonError(PTDISEASE_MESSAGES.notFound, 404)
    }

    const result = await patchPtdisease(id, await readJsonObject(request), actor, { today: platformToday() })
    if (result.status === 'invalid') return validationFailed(result.error)
    if (result.status === 'not-found') return jsonError(PTDISEASE_MESSAGES.notFound, 404)
    return Response.json(result.record)
  })
}
