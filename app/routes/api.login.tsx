import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'

import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { primaryButtonClass, Spinner } from '#app/components/account-ui.tsx'
import { TextField } from '#app/components/form-field.tsx'
import { useCheckedForm } from '#app/components/checked-form.tsx'
import { zodCheck } from '#app/components/zod-check.ts'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { developmentSignInSchema } from '#app/models/accounts/identity-sign-in-schema.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { formRefusal, parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { configuredProvider, developmentSignInAvailable } from '#app/services/accounts/oidc.server.ts'
import { signInIdentity } from '#app/services/accounts/identity-sign-in.server.ts'
import { beginProviderSignIn } from '#app/services/http/oidc-round-trip.server.ts'
import { answerIdentitySignIn } from '#app/services/http/sign-in-redirects.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { AppError } from '#app/utils/app-error.ts'

export const meta: MetaFunction = () => [{ title: `Sign in — ${PRODUCT_NAME}` }]

/**
 * With a provider configured: straight on to it. Without one outside production: the development sign-in page.
 * In production without one: a page that says so.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const env = getEnv()
  if (env.oidcEnabled) throw await beginProviderSignIn(request, await configuredProvider(env))
  return {
    mode: developmentSignInAvailable(env) ? ('development' as const) : ('unavailable' as const),
    redirectTo: new URL(request.url).searchParams.get('redirectTo') ?? '',
  }
}

export async function action({ request }: ActionFunctionArgs) {
  if (!developmentSignInAvailable()) return errorResponse(new AppError('Not found', 'not_found'))
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, developmentSignInSchema)
  if (submission.status !== 'success') return formRefusal(submission.reply())
  return answerIdentitySignIn(
    request,
    // Development only: whoever types an email stands for it, as a provider that verified it would say.
    signInIdentity({ email: submission.value.email }, { emailVerified: true }),
    { identity: { provider: 'development' }, redirectTo: submission.value.redirectTo },
  )
}

export default function IdentitySignIn() {
  const { mode, redirectTo } = useLoaderData<typeof loader>()
  return mode === 'development' ? <DevelopmentSignIn redirectTo={redirectTo} /> : <ProviderUnavailable />
}

function ProviderUnavailable() {
  return (
    <main className="mx-auto max-w-md px-4 py-16 text-center">
      <h1 className="text-2xl font-bold text-ink">Sign-in with an identity provider is not available</h1>
      <p className="mt-3 text-slate-600">
        This site has no identity provider configured. Advertisers can sign in with their business email and
        password.
      </p>
      <Link to="/login" className={`${primaryButtonClass} mt-6`}>
        Go to business sign in
      </Link>
    </main>
  )
}

function DevelopmentSignIn({ redirectTo }: { redirectTo: string }) {
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const submitting = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST'
  const { formProps, field } = useCheckedForm({
    id: 'development-sign-in',
    reply: actionData && 'result' in actionData ? actionData.result : undefined,
    checkOnBlur: true,
    check: zodCheck(developmentSignInSchema),
  })
  const email = field('email')
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <div className="rounded-2xl border-2 border-dashed border-amber-500 bg-amber-50 p-8">
        <p className="text-xs font-bold tracking-wide text-amber-800 uppercase">Development only</p>
        <h1 className="mt-1 text-2xl font-bold text-ink">Development sign-in</h1>
        <p className="mt-3 text-sm text-slate-700">
          No identity provider is configured, so this page stands in for it: type any email address to sign in
          as that user. New users get an account automatically. It is never available in production.
        </p>
        <Form method="post" {...formProps} className="mt-6 space-y-4">
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <TextField
            label="Email"
            field={email}
            inputProps={{ ...email.inputProps, type: 'email', required: true, autoComplete: 'email' }}
          />
          <button type="submit" disabled={submitting} className={`${primaryButtonClass} w-full`}>
            {submitting ? (
              <>
                <Spinner />
                Signing in...
              </>
            ) : (
              'Sign in'
            )}
          </button>
        </Form>
      </div>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
