import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { secondaryButtonClass } from '#app/components/account-ui.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PromoCodeAdminForm } from '#app/components/promo-code-admin-form.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { promoCodesFormSchema } from '#app/models/payments/promo-code-schema.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import {
  fieldsTooLongToEcho,
  formRefusal,
  parseFormSubmission,
} from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import {
  createPromoCode,
  promoCodesPage,
  turnOffPromoCode,
} from '#app/services/payments/promo-code-admin.server.ts'

const PROMO_CODES_TITLE = 'Promo codes'
/** A value this long is not sent back with the refusal (no field of the form needs more). */
const ECHO_MAX = 100

export const meta: MetaFunction = () => [{ title: `${PROMO_CODES_TITLE} · ${PRODUCT_NAME}` }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return data(await promoCodesPage(), { headers: { 'Cache-Control': 'no-store' } })
}

/** A new code, or turning one off. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, promoCodesFormSchema)
  if (submission.status !== 'success') {
    return formRefusal(submission.reply({ hideFields: fieldsTooLongToEcho(form, ECHO_MAX) }))
  }
  const posted = submission.value
  try {
    const done =
      posted.intent === 'create'
        ? await createPromoCode(posted, admin.id)
        : await turnOffPromoCode(posted.id, admin.id)
    return redirectWithToast('/admin/promo-codes', done)
  } catch (error) {
    return errorResponse(error, {
      request,
      reply: (refusal) => ({
        result: submission.reply(
          Object.keys(refusal.fieldErrors).length
            ? { fieldErrors: refusal.fieldErrors as Record<string, string[]> }
            : { formErrors: [refusal.message] },
        ),
      }),
    })
  }
}

export default function AdminPromoCodes() {
  const page = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  return (
    <main className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold text-ink">{PROMO_CODES_TITLE}</h1>
      <p className="mt-2 text-slate-600">
        Codes advertisers enter at checkout for a percentage or an amount off an ad's list price. Each
        business can use a code once; a code turned off cannot be used from then on.{' '}
        <Link to="/admin" className="font-medium text-brand-700 underline">
          Back to moderation
        </Link>
      </p>

      <h2 className="mt-8 text-xl font-semibold text-ink">Codes</h2>
      {page.codes.length === 0 ? (
        <p className="mt-2 text-slate-600">No promo codes yet.</p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="promo-codes">
            <thead>
              <tr className="border-b border-slate-200">
                <th className="py-2 pr-3">Code</th>
                <th className="py-2 pr-3">Discount</th>
                <th className="py-2 pr-3">Uses</th>
                <th className="py-2 pr-3">Last day</th>
                <th className="py-2 pr-3">First paid ad only</th>
                <th className="py-2 pr-3">Status</th>
                <th className="py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.codes.map((code) => (
                <tr key={code.id} className="border-b border-slate-100 align-top">
                  <td className="py-2 pr-3 font-mono">{code.code}</td>
                  <td className="py-2 pr-3">{code.discount}</td>
                  <td className="py-2 pr-3">{code.uses}</td>
                  <td className="py-2 pr-3">{code.lastDay ?? '—'}</td>
                  <td className="py-2 pr-3">{code.firstAdOnly ? 'Yes' : 'No'}</td>
                  <td className="py-2 pr-3">{code.status}</td>
                  <td className="py-2">
                    {code.active ? (
                      <Form method="post">
                        <input type="hidden" name="id" value={code.id} />
                        <button
                          type="submit"
                          name="intent"
                          value="turn-off"
                          className={secondaryButtonClass}
                          aria-label={`Turn off ${code.code}`}
                        >
                          Turn off
                        </button>
                      </Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2 className="mt-8 text-xl font-semibold text-ink">New code</h2>
      <PromoCodeAdminForm reply={refused?.result ?? null} />

      <h2 className="mt-10 text-xl font-semibold text-ink">History</h2>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="promo-code-history">
          <thead>
            <tr className="border-b border-slate-200">
              <th className="py-2 pr-3">When</th>
              <th className="py-2 pr-3">Who</th>
              <th className="py-2 pr-3">Code</th>
              <th className="py-2">What</th>
            </tr>
          </thead>
          <tbody>
            {page.history.map((entry) => (
              <tr key={entry.id} className="border-b border-slate-100 align-top">
                <td className="py-2 pr-3">
                  <time dateTime={entry.at}>{entry.at.slice(0, 16).replace('T', ' ')} UTC</time>
                </td>
                <td className="py-2 pr-3">{entry.by || '—'}</td>
                <td className="py-2 pr-3 font-mono">{entry.code}</td>
                <td className="py-2">{entry.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
