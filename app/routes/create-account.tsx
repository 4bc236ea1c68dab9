import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data, redirect } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import {
  primaryButtonClass,
  secondaryButtonClass,
  Spinner,
  useHydrated,
} from '#app/components/account-ui.tsx'
import { useCheckedForm } from '#app/components/checked-form.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { RegistrationFields } from '#app/components/registration-fields.tsx'
import { toast } from '#app/components/toaster.tsx'
import { DELAY_AFTER_REGISTRATION_MS, PRODUCT_NAME, SIGNUP_HONEYPOT_FIELD } from '#app/constants.ts'
import { registrationSchema } from '#app/models/accounts/business-schema.ts'
import { DUPLICATE_EMAIL_MESSAGE, registrationProblems } from '#app/models/accounts/registration-rules.ts'
import { toSessionCopy } from '#app/models/accounts/business.server.ts'
import { addBusinessToSession, getBusiness, getUser } from '#app/services/http/auth.server.ts'
import { clientIp } from '#app/services/http/client-address.server.ts'
import { formRefusal, parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import {
  completeRegistration,
  fieldErrorsOf,
  REGISTRATION_FAILURE_OPTIONS,
  REGISTRATION_HIDDEN_FIELDS,
  REGISTRATION_SUCCESS_MESSAGE,
  REGISTRATION_SUCCESS_TITLE,
  kindOfFieldErrors,
  serverRegistrationSchema,
} from '#app/services/accounts/registration.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { linkOrigin } from '#app/services/http/site-url.server.ts'
import { signupStampCookie, signupStampFrom } from '#app/services/http/signup-stamp-cookie.server.ts'
import {
  isHumanPost,
  renewedSignupStamp,
  SIGNUP_REFUSAL,
} from '#app/services/moderation/robot-guard.server.ts'

export const meta: MetaFunction = () => [
  { title: `Create Business Account — ${PRODUCT_NAME}` },
  { name: 'description', content: `Register your business on ${PRODUCT_NAME} to advertise your events.` },
]

/** Set by the browser once JavaScript runs: then the page shows the toast and moves on by itself. */
const ENHANCED_FIELD = 'js'

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getBusiness(request)) throw redirect('/dashboard')
  const user = await getUser(request)
  const stamp = renewedSignupStamp(signupStampFrom(request))
  return data(
    { signedInEmail: user?.email ?? null },
    stamp ? { headers: { 'Set-Cookie': signupStampCookie(stamp) } } : undefined,
  )
}

export async function action({ request }: ActionFunctionArgs) {
  if (await getBusiness(request)) throw redirect('/dashboard')
  const formData = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const enhanced = formData.get(ENHANCED_FIELD) === '1'
  // Field errors for the re-rendered form come from the browser-side rules (no database needed for that).
  const replyWithMessage = (message: string) =>
    parseFormSubmission(formData, registrationSchema).reply({
      formErrors: [message],
      hideFields: REGISTRATION_HIDDEN_FIELDS,
    })

  const stamp = signupStampFrom(request)
  if (!isHumanPost({ honeypot: formData.get(SIGNUP_HONEYPOT_FIELD), stamp }, { form: 'signup' })) {
    // A person reads what to do, and a browser without a usable stamp gets one, so pressing again passes.
    const renewed = renewedSignupStamp(stamp)
    return formRefusal(replyWithMessage(SIGNUP_REFUSAL), {
      headers: renewed ? { 'Set-Cookie': signupStampCookie(renewed) } : undefined,
      extra: { success: null },
    })
  }

  let submission
  let headers
  try {
    // The email is checked against the database too, hence the async reading.
    submission = await parseFormSubmission(formData, serverRegistrationSchema, { async: true })
    if (submission.status !== 'success') {
      return formRefusal(submission.reply({ hideFields: REGISTRATION_HIDDEN_FIELDS }), {
        kind: kindOfFieldErrors(fieldErrorsOf(submission.error)),
        extra: { success: null },
      })
    }
    // Someone signed in through the identity provider gets the new business linked and in their session.
    const user = await getUser(request)
    const business = await completeRegistration(submission.value, {
      ip: clientIp(request),
      linkUserId: user?.id,
      origin: linkOrigin(request),
    })
    headers = await addBusinessToSession(request, user, toSessionCopy(business))
  } catch (error) {
    const replied = submission
    return errorResponse(error, {
      request,
      ...REGISTRATION_FAILURE_OPTIONS,
      reply: (refusal) =>
        replied && refusal.fieldErrors.businessEmail
          ? {
              result: replied.reply({
                fieldErrors: { businessEmail: [DUPLICATE_EMAIL_MESSAGE] },
                hideFields: REGISTRATION_HIDDEN_FIELDS,
              }),
              success: null,
            }
          : { result: replyWithMessage(refusal.message), success: null },
    })
  }

  const done = { title: REGISTRATION_SUCCESS_TITLE, description: REGISTRATION_SUCCESS_MESSAGE }
  if (!enhanced) return redirectWithToast('/login', done, { headers })
  return data({ result: submission.reply({ resetForm: true }), success: done }, { status: 201, headers })
}

export default function CreateAccount() {
  const { signedInEmail } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const navigate = useNavigate()
  const hydrated = useHydrated()
  const [created, setCreated] = useState(false)
  const submitting = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST'
  const success = actionData?.success ?? null

  const { formProps, field, formErrors, formErrorId } = useCheckedForm({
    id: 'create-business-account',
    reply: actionData?.result,
    defaultValue: { businessEmail: signedInEmail ?? '' },
    checkOnBlur: true,
    check: registrationProblems,
  })

  useEffect(() => {
    if (!success) return
    setCreated(true)
    toast({ title: success.title, description: success.description })
    const timer = setTimeout(() => navigate('/login'), DELAY_AFTER_REGISTRATION_MS)
    return () => clearTimeout(timer)
  }, [success, navigate])

  useEffect(() => {
    const message = actionData?.result.error?.['']?.[0]
    if (message) toast({ title: 'Registration Failed', description: message, variant: 'destructive' })
  }, [actionData])

  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-3xl font-bold text-ink">Create Business Account</h1>
        <p className="mt-2 text-slate-600">Register your business to start advertising your events.</p>
        {signedInEmail ? (
          <p className="mt-3 rounded-md bg-brand-50 p-3 text-sm text-slate-700">
            You are signed in as <strong>{signedInEmail}</strong>. The business you create will be linked to
            this account.
          </p>
        ) : null}

        {formErrors.length ? (
          <div
            id={formErrorId}
            role="alert"
            className="mt-6 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
          >
            {formErrors.map((e) => (
              <p key={e}>{e}</p>
            ))}
          </div>
        ) : null}
        {created ? (
          <p
            role="status"
            className="mt-6 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-800"
          >
            Account created. Taking you to the login page…
          </p>
        ) : null}

        <Form method="post" {...formProps} className="mt-6 space-y-8">
          {hydrated ? <input type="hidden" name={ENHANCED_FIELD} value="1" /> : null}
          <div aria-hidden className="hidden">
            <label htmlFor="create-business-account-nickname">Leave this field empty</label>
            <input
              id="create-business-account-nickname"
              name={SIGNUP_HONEYPOT_FIELD}
              tabIndex={-1}
              autoComplete="off"
            />
          </div>

          <RegistrationFields field={field} />

          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
            <Link to="/login" className={secondaryButtonClass}>
              Back to Login
            </Link>
            <button type="submit" disabled={submitting || created} className={primaryButtonClass}>
              {submitting ? (
                <>
                  <Spinner />
                  Creating Account...
                </>
              ) : (
                'Create Account'
              )}
            </button>
          </div>
        </Form>
      </div>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
