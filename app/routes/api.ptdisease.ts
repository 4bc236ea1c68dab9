import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { createPtdisease, listPtdiseases } from '#app/models/patient-records/ptdisease.server.ts'
import { pageHeaders } from '#app/services/http/http.server.ts'
import { answerCall, requireRoleForJson } from '#app/services/http/json-calls.server.ts'
import { NO_STORE } from '#app/services/http/no-store.server.ts'
import { readJsonObject } from '#app/services/http/request-body.server.ts'
import {
  auditActor,
  logPtdiseaseFailure,
  ptdiseaseServerSchema,
  SIGN_IN_FOR_RECORDS,
  validationFailed,
} from '#app/services/patient-records/records.server.ts'
import { methodNotAllowed } from '#app/utils/app-error.ts'

/** Every answer is no-store; an unexpected failure is logged without its message. */
const ANSWERS = { headers: NO_STORE, log: logPtdiseaseFailure }

/**
 * GET /api/ptdisease?search=&page= — a page of records (newest first, 50 a page) as a JSON array.
 * X-Total-Count and a Link header (rel="next"/"prev") describe the other pages.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return answerCall(async () => {
    const user = await requireRoleForJson(request, 'clinician', SIGN_IN_FOR_RECORDS)
    const url = new URL(request.url)
    const requested = Number(url.searchParams.get('page') ?? '1')
    const result = await listPtdiseases(
      { search: url.searchParams.get('search') ?? '', page: Number.isInteger(requested) ? requested : 1 },
      auditActor(user),
    )
    return Response.json(result.records, { headers: pageHeaders(request.url, result) })
  }, ANSWERS)
}

/** POST /api/ptdisease — creates a record from JSON (dates and numbers may be strings); 201 with the record. */
export function action({ request }: ActionFunctionArgs) {
  return answerCall(async () => {
    if (request.method !== 'POST') throw methodNotAllowed('GET, POST')
    const user = await requireRoleForJson(request, 'clinician', SIGN_IN_FOR_RECORDS)
    const parsed = ptdiseaseServerSchema.safeParse(await readJsonObject(request))
    if (!parsed.success) throw validationFailed(parsed.error)
    const record = await createPtdisease(parsed.data, auditActor(user))
    return Response.json(record, { status: 201 })
  }, ANSWERS)
}
