import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { createPtdisease, listPtdiseases, ptdiseaseServerSchema } from '#app/models/ptdisease.server.ts'
import {
  auditActor,
  methodNotAllowed,
  ptdiseaseApi,
  readJsonObject,
  requireClinicianApi,
  validationFailed,
} from '#app/services/ptdisease-http.server.ts'

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
    const headers = new Headers({
      'X-Total-Count': String(result.total),
      'X-Page': String(result.page),
      'X-Page-Count': String(result.pageCount),
    })
    const links: string[] = []
    const pageLink = (page: number, rel: string) => {
      const next = new URL(url)
      next.searchParams.set('page', String(page))
      links.push(`<${next.pathname}${next.search}>; rel="${rel}"`)
    }
    if (result.page < result.pageCount) pageLink(result.page + 1, 'next')
    if (result.page > 1) pageLink(result.page - 1, 'prev')
    if (links.length) headers.set('Link', links.join(', '))
    return Response.json(result.records, { headers })
  })
}

/** POST /api/ptdisease — creates a record from JSON (dates and numbers may be strings); 201 with the record. */
export function action({ request }: ActionFunctionArgs) {
  return ptdiseaseApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed('GET, POST')
    const user = await requireClinicianApi(request)
    const parsed = ptdiseaseServerSchema.safeParse(await readJsonObject(request))
    if (!parsed.success) return validationFailed(parsed.error)
    const record = await createPtdisease(parsed.data, auditActor(user))
    return Response.json(record, { status: 201 })
  })
}
