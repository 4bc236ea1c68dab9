import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import {
  deletePtdisease,
  getPtdisease,
  parsePtdiseaseId,
  patchPtdisease,
} from '#app/models/patient-records/ptdisease.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { readJsonObject } from '#app/services/http/request-body.server.ts'
import {
  auditActor,
  ptdiseaseApi,
  recordNotFoundError,
  requireClinicianApi,
  validationFailed,
} from '#app/services/patient-records/ptdisease-http.server.ts'
import { methodNotAllowed } from '#app/utils/app-error.ts'

function recordId(params: LoaderFunctionArgs['params']) {
  const id = parsePtdiseaseId(params.id)
  if (id === null) throw recordNotFoundError()
  return id
}

/** GET /api/ptdisease/{id} — one record. */
export function loader({ request, params }: LoaderFunctionArgs) {
  return ptdiseaseApi(async () => {
    const user = await requireClinicianApi(request)
    const record = await getPtdisease(recordId(params), auditActor(user))
    if (!record) throw recordNotFoundError()
    return Response.json(record)
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
      throw methodNotAllowed('GET, PATCH, DELETE')
    const user = await requireClinicianApi(request)
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
  })
}
