import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { createPtdisease, listPtdiseases } from '#app/models/patient-records/ptdisease.server.ts'
import { pageHeaders } from '#app/services/http/http.server.ts'
import { readJsonObject } from '#app/services/http/request-body.server.ts'
import {
  auditActor,
  ptdiseaseApi,
  ptdiseaseServerSchema,
  requireClinicianApi,
  validationFailed,
} from '#app/services/patient-records/ptdisease-http.server.ts'
import { methodNotAllowed } from '#app/utils/app-error.ts'

/**
 * GET /api/ptdisease?search=&page= — a page of records (newest first, 50 a page) as a JSON array.
 * X-Total-Count and a Link header (rel="next"/"prev") describe the other pages.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return ptdiseaseApi(async () => {
    const user = await requireClinicianApi(request)
    const url = new URL(request.url)
    const requested = Number(url.searchParams.get('page') ?? '1')
    const result = await listPtdiseases(
      { search: url.searchParams.get('search') ?? '', page: Number.isInteger(requested) ? requested : 1 },
      auditActor(user),
    )
    return Response.json(result.records, { headers: pageHeaders(request.url, result) })
  })
}

/** POST /api/ptdisease — creates a record from JSON (dates and numbers may be strings); 201 with the record. */
export function action({ request }: ActionFunctionArgs) {
  return ptdiseaseApi(async () => {
    if (request.method !== 'POST') throw methodNotAllowed('GET, POST')
    const user = await requireClinicianApi(request)
    const parsed = ptdiseaseServerSchema.safeParse(await readJsonObject(request))
    if (!parsed.success) throw validationFailed(parsed.error)
    const record = await createPtdisease(parsed.data, auditActor(user))
    return Response.json(record, { status: 201 })
  })
}
