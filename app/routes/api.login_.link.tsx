import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useMemo } from 'react'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { primaryButtonClass, Spinner } from '#app/components/account-ui.tsx'
import { useCheckedForm } from '#app/components/checked-form.tsx'
import { TextField } from '#app/components/form-field.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import {
  completePasswordLink,
  LINK_EXPIRED_MESSAGE,
  readPendingLink,
} from '#app/services/accounts/password-linking.server.ts'
import { SIGN_IN_FAILED_TITLE } from '#app/services/accounts/sign-in-redirects.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'

export const meta: MetaFunction = () => [{ title: `Link your sign-in — ${PRODUCT_NAME}` }]

/**
 * Reached from the provider's callback when the provider has not verified the email a business has: the business
 * password proves the person may act for it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const found = await readPendingLink(request)
  if (!found) {
    throw await redirectWithToast('/login', {
      title: SIGN_IN_FAILED_TITLE,
      description: LINK_EXPIRED_MESSAGE,
      variant: 'destructive',
    })
  }
  return { businessName: found.business.businessName, email: found.pending.profile.email }
}

export async function action({ request }: ActionFunctionArgs) {
  try {
    const form = await readFormData(request)
    return await completePasswordLink(request, form.get('password'))
  } catch (error) {
    return errorResponse(error, { request, reply: (refusal) => ({ error: refusal.message }) })
  }
}

export default function LinkWithPassword() {
  const { businessName, email } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const submitting = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST'
  const error = actionData?.error
  // The service's answer is the password's message. The browser checks nothing the server does not say better:
  // without JavaScript its own check asks for a password; with it, the server's message shows at the field.
  const reply = useMemo(() => (error ? { error: { password: [error] } } : null), [error])
  const { formProps, field } = useCheckedForm({
    id: 'link',
    reply,
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
