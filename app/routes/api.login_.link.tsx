import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'

import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { primaryButtonClass, Spinner } from '#app/components/account-ui.tsx'
import { useCheckedForm } from '#app/components/checked-form.tsx'
import { TextField } from '#app/components/form-field.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { linkPasswordSchema } from '#app/models/accounts/identity-sign-in-schema.ts'
import {
  businessAwaitingLink,
  LINK_EXPIRED_MESSAGE,
  linkedWelcomeMessage,
  linkWithBusinessPassword,
} from '#app/services/accounts/password-linking.server.ts'
import { clientIp } from '#app/services/http/client-address.server.ts'
import { formRefusal, parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import {
  clearPendingLink,
  finishSignIn,
  readPendingLink,
  SIGN_IN_FAILED_TITLE,
  signInFailure,
} from '#app/services/http/sign-in-redirects.server.ts'

export const meta: MetaFunction = () => [{ title: `Link your sign-in — ${PRODUCT_NAME}` }]

/**
 * Reached from the provider's callback when the provider has not verified the email a business has: the business
 * password proves the person may act for it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const pending = await readPendingLink(request)
  const business = await businessAwaitingLink(pending)
  if (!pending || !business) throw await signInFailure(LINK_EXPIRED_MESSAGE, SIGN_IN_FAILED_TITLE)
  return { businessName: business.businessName, email: pending.profile.email }
}

/**
 * The business password (checked, and rate-limited, exactly as at /login) links the provider sign-in to the business
 * and signs in as both; a refused password is shown at the field, under the sign-in's status.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const pending = await readPendingLink(request)
  const business = await businessAwaitingLink(pending)
  if (!pending || !business) return signInFailure(LINK_EXPIRED_MESSAGE, SIGN_IN_FAILED_TITLE)
  const submission = parseFormSubmission(form, linkPasswordSchema)
  if (submission.status !== 'success') {
    return formRefusal(submission.reply({ hideFields: ['password'] }))
  }
  let user
  try {
    user = await linkWithBusinessPassword(pending, business, submission.value.password, {
      ip: clientIp(request),
    })
  } catch (error) {
    return errorResponse(error, {
      request,
      reply: (refusal) => ({
        result: submission.reply({ fieldErrors: { password: [refusal.message] }, hideFields: ['password'] }),
      }),
    })
  }
  return finishSignIn(
    request,
    user,
    business,
    { identity: pending.identity, redirectTo: pending.redirectTo, headers: await clearPendingLink() },
    linkedWelcomeMessage(business.businessName),
  )
}

export default function LinkWithPassword() {
  const { businessName, email } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const submitting = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST'
  // The browser checks nothing the server does not say better: without JavaScript its own check asks for a
  // password; with it, the server's message shows at the field.
  const { formProps, field } = useCheckedForm({
    id: 'link',
    reply: actionData?.result,
    check: () => ({}),
    browserChecksWithoutJs: true,
  })
  const password = field('password')
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold text-ink">Link your sign-in to {businessName}</h1>
      <p className="mt-3 text-sm text-slate-700">
        Your identity provider has not verified that <strong>{email}</strong> is yours. Enter the password of
        the business account {businessName} to sign in as it.
      </p>
      <Form method="post" {...formProps} className="mt-6 space-y-4">
        <TextField
          label="Business password"
          field={{ ...password, id: 'link-password' }}
          inputProps={{
            name: 'password',
            type: 'password',
            required: true,
            autoComplete: 'current-password',
          }}
        />
        <button type="submit" disabled={submitting} className={`${primaryButtonClass} w-full`}>
          {submitting ? (
            <>
              <Spinner />
              Linking...
            </>
          ) : (
            'Link and sign in'
          )}
        </button>
      </Form>
      <p className="mt-4 text-center text-sm">
        <Link to="/login" className="text-brand-700 underline">
          Cancel
        </Link>
      </p>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
