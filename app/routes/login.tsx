import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { Authenticator } from 'remix-auth'
import { FormStrategy } from 'remix-auth-form'
import {
  PasswordToggle,
  primaryButtonClass,
  secondaryButtonClass,
  Spinner,
  useHydrated,
} from '#app/components/account-ui.tsx'
import { TextField } from '#app/components/form-field.tsx'
import { useCheckedForm } from '#app/components/checked-form.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { toast } from '#app/components/toaster.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { signInFormSchema } from '#app/models/accounts/business-schema.ts'
import type { BusinessSessionCopy } from '#app/models/accounts/business.server.ts'
import { checkSignIn } from '#app/models/accounts/sign-in-rules.ts'
import { getBusiness, startSession } from '#app/services/http/auth.server.ts'
import {
  LOGIN_FAILED_TITLE,
  LOGIN_SUCCESS_TITLE,
  signInBusiness,
  signInFormRefusal,
  welcomeBackMessage,
} from '#app/services/accounts/business-auth.server.ts'
import { clientIp } from '#app/services/http/client-address.server.ts'
import { parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { errorResponse, safeRedirect } from '#app/services/http/http.server.ts'
import { readFormData, withFormBody } from '#app/services/http/request-body.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'

export const meta: MetaFunction = () => [
  { title: `Sign in — ${PRODUCT_NAME}` },
  {
    name: 'description',
    content: `Sign in to ${PRODUCT_NAME} to advertise your events and follow how your ads do.`,
  },
]

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getBusiness(request)) throw redirect('/dashboard')
  return { redirectTo: new URL(request.url).searchParams.get('redirectTo') ?? '' }
}

const FORM_STRATEGY = 'business-form'

/** The business sign-in through remix-auth's form strategy: the posted email and password, from the client's address. */
function formAuthenticator() {
  return new Authenticator<BusinessSessionCopy>().use(
    new FormStrategy<BusinessSessionCopy>(async ({ form, request }) =>
      signInBusiness({ email: form.get('email'), password: form.get('password') }, { ip: clientIp(request) }),
    ),
    FORM_STRATEGY,
  )
}

/** Fields email, password and an optional redirectTo; a refusal is shown in a toast and at the field it concerns. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, signInFormSchema)
  const typed = submission.payload.email
  // What was typed, to fill the form again when it is shown with an error.
  const email = typeof typed === 'string' ? typed.trim().slice(0, 320) : ''
  let business: BusinessSessionCopy
  try {
    if (submission.status !== 'success') throw signInFormRefusal(submission.payload)
    business = await formAuthenticator().authenticate(FORM_STRATEGY, withFormBody(request, form))
  } catch (error) {
    return errorResponse(error, {
      request,
      reply: (refusal) => {
        const field = (['email', 'password'] as const).find((name) => refusal.fieldErrors[name]) ?? null
        const reply = submission.reply({
          hideFields: ['password'],
          ...(field ? { fieldErrors: { [field]: [refusal.message] } } : { formErrors: [refusal.message] }),
        })
        const title = refusal.title ?? LOGIN_FAILED_TITLE
        return { result: reply, error: { title, message: refusal.message, field }, email }
      },
    })
  }
  const headers = await startSession(request, { business })
  return redirectWithToast(
    safeRedirect(submission.value.redirectTo, '/dashboard'),
    { title: LOGIN_SUCCESS_TITLE, description: welcomeBackMessage(business.businessName) },
    { headers },
  )
}

export default function SignIn() {
  const { redirectTo } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const hydrated = useHydrated()
  const [showPassword, setShowPassword] = useState(false)
  const submitting = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST'
  const error = actionData?.error

  useEffect(() => {
    if (error) toast({ title: error.title, description: error.message, variant: 'destructive' })
  }, [error])

  // The browser runs the sign-in checks (the server repeats them) on submit only, so the toast belongs to a submit.
  const { formProps, field } = useCheckedForm({
    id: 'sign-in',
    reply: actionData?.result,
    defaultValue: { email: actionData?.email ?? '' },
    // Email and password are trimmed before sending.
    trimmed: ['email', 'password'],
    check(values) {
      const problem = checkSignIn(values)
      return problem ? { [problem.field]: problem.description } : {}
    },
    onInvalid(_, values) {
      const problem = checkSignIn(values)
      if (problem) toast({ title: problem.title, description: problem.description, variant: 'destructive' })
    },
  })
  const email = field('email')
  const password = field('password')

  return (
    <main className="mx-auto flex max-w-md flex-col px-4 py-12">
      <div className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-center text-3xl font-bold text-ink">Advertiser Dashboard</h1>
        <p className="mt-2 text-center text-slate-600">Sign in to your account</p>

        {/* Without JavaScript there are no toasts, so the answer is shown here instead. */}
        {!hydrated && error ? (
          <div
            role="alert"
            className="mt-6 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
          >
            <p className="font-semibold">{error.title}</p>
            <p>{error.message}</p>
          </div>
        ) : null}

        <Form method="post" {...formProps} className="mt-6 space-y-4">
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <TextField
            label="Email"
            field={{ ...email, id: 'email' }}
            inputProps={{
              ...email.inputProps,
              type: 'email',
              autoComplete: 'email',
              required: true,
            }}
          />
          <TextField
            label="Password"
            field={{ ...password, id: 'password' }}
            inputProps={{
              ...password.inputProps,
              type: showPassword ? 'text' : 'password',
              autoComplete: 'current-password',
              required: true,
            }}
            trailing={
              hydrated ? (
                <PasswordToggle shown={showPassword} onToggle={() => setShowPassword((v) => !v)} />
              ) : null
            }
          />
          <button type="submit" disabled={submitting} className={`${primaryButtonClass} w-full`}>
            {submitting ? (
              <>
                <Spinner />
                Signing in...
              </>
            ) : (
              'Sign In'
            )}
          </button>
        </Form>

        <div className="mt-4">
          <Link to="/create-account" className={`${secondaryButtonClass} w-full`}>
            Create an account
          </Link>
        </div>
        <p className="mt-6 text-center text-sm text-slate-600">
          Staff, or signing in with your identity provider?{' '}
          <a href="/api/login" className="font-medium text-brand-700 underline">
            Sign in with the identity provider
          </a>
        </p>
      </div>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
