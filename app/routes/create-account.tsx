import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data, redirect } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation } from '@remix-run/react'
import { useEffect, useState, type FocusEvent, type ReactNode } from 'react'
import {
  primaryButtonClass,
  secondaryButtonClass,
  Spinner,
  useHydrated,
} from '#app/components/account-ui.tsx'
import { TextField } from '#app/components/form-field.tsx'
import { useCheckedForm } from '#app/components/checked-form.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { toast } from '#app/components/toaster.tsx'
import { DELAY_AFTER_REGISTRATION_MS, PRODUCT_NAME, SIGNUP_HONEYPOT_FIELD } from '#app/constants.ts'
import { registrationSchema } from '#app/models/accounts/business-schema.ts'
import {
  DUPLICATE_EMAIL_MESSAGE,
  isRequiredRegistrationField,
  registrationLengthConstraints,
  registrationProblems,
  withHttpsScheme,
  type RegistrationField,
} from '#app/models/accounts/registration-rules.ts'
import { getBusiness, getUser } from '#app/services/accounts/auth.server.ts'
import { parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import {
  completeRegistration,
  fieldErrorsOf,
  parseRegistrationForm,
  REGISTRATION_FAILURE_OPTIONS,
  REGISTRATION_HIDDEN_FIELDS,
  REGISTRATION_SUCCESS_MESSAGE,
  REGISTRATION_SUCCESS_TITLE,
  kindOfFieldErrors,
} from '#app/services/accounts/registration.server.ts'
import { STATUS_OF_KIND } from '#app/services/http/error-status.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import {
  isHumanPost,
  NEUTRAL_REFUSAL,
  signupStampCookie,
  signupStampFrom,
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
  const stampCookie = signupStampCookie(request)
  return data(
    { signedInEmail: user?.email ?? null },
    stampCookie ? { headers: { 'Set-Cookie': stampCookie } } : undefined,
  )
}

export async function action({ request }: ActionFunctionArgs) {
  if (await getBusiness(request)) throw redirect('/dashboard')
  const formData = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const enhanced = formData.get(ENHANCED_FIELD) === '1'
  // Field errors for the re-rendered form come from the browser-side rules (no database needed for that).
  const formErrorReply = (message: string) => ({
    result: parseFormSubmission(formData, registrationSchema).reply({
      formErrors: [message],
      hideFields: REGISTRATION_HIDDEN_FIELDS,
    }),
    success: null,
  })

  if (!isHumanPost(formData, { form: 'signup', stamp: signupStampFrom(request) })) {
    return data(formErrorReply(NEUTRAL_REFUSAL), { status: 400 })
  }

  let submission
  let created
  try {
    submission = await parseRegistrationForm(formData)
    if (submission.status !== 'success') {
      return data(
        { result: submission.reply({ hideFields: REGISTRATION_HIDDEN_FIELDS }), success: null },
        { status: STATUS_OF_KIND[kindOfFieldErrors(fieldErrorsOf(submission.error))] },
      )
    }
    created = await completeRegistration(request, submission.value)
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
          : formErrorReply(refusal.message),
    })
  }

  const done = { title: REGISTRATION_SUCCESS_TITLE, description: REGISTRATION_SUCCESS_MESSAGE }
  if (!enhanced) return redirectWithToast('/login', done, { headers: created.headers })
  return data(
    { result: submission.reply({ resetForm: true }), success: done },
    { status: 201, headers: created.headers },
  )
}

const lengths = registrationLengthConstraints()

const URL_FIELD_LABELS = [
  ['businessWebsite', 'Website'],
  ['facebookURL', 'Facebook URL'],
  ['instagramURL', 'Instagram URL'],
  ['linkedin', 'LinkedIn URL'],
  ['youtubeURL', 'YouTube URL'],
  ['xURL', 'X (Twitter) URL'],
  ['tiktokURL', 'TikTok URL'],
] as const

function addScheme(event: FocusEvent<HTMLInputElement>) {
  const input = event.currentTarget
  const next = withHttpsScheme(input.value)
  if (next !== input.value) input.value = next
}

function Optional() {
  return <span className="font-normal text-slate-500"> (optional)</span>
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

  const {
    formProps,
    field: checkedField,
    formErrors,
    formErrorId,
  } = useCheckedForm({
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

  const field = (
    name: RegistrationField,
    label: ReactNode,
    options: {
      type?: 'text' | 'email' | 'password' | 'tel' | 'url'
      autoComplete?: string
      url?: boolean
    } = {},
  ) => {
    const { type = 'text', autoComplete, url = false } = options
    const checked = checkedField(name)
    return (
      <TextField
        label={label}
        field={checked}
        inputProps={{
          ...checked.inputProps,
          ...lengths[name],
          required: isRequiredRegistrationField(name),
          type: type === 'url' ? 'text' : type,
          autoComplete,
          inputMode: url ? 'url' : undefined,
          onBlur: url ? addScheme : undefined,
        }}
      />
    )
  }

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

          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-lg font-semibold text-ink">Business</legend>
            {field('businessName', 'Business Name', { autoComplete: 'organization' })}
            {field('businessContact', 'Contact Name', { autoComplete: 'name' })}
            {field('businessPhone', 'Business Phone', { type: 'tel', autoComplete: 'tel' })}
            {field(
              'businessFax',
              <>
                Fax
                <Optional />
              </>,
              { type: 'tel' },
            )}
          </fieldset>

          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-lg font-semibold text-ink">Address</legend>
            <div className="sm:col-span-2">
              {field('businessAddress', 'Address', { autoComplete: 'street-address' })}
            </div>
            {field('businessCity', 'City', { autoComplete: 'address-level2' })}
            {field('businessState', 'State', { autoComplete: 'address-level1' })}
            {field('businessZip', 'ZIP Code', { autoComplete: 'postal-code' })}
          </fieldset>

          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-lg font-semibold text-ink">Sign-in details</legend>
            <div className="sm:col-span-2">
              {field('businessEmail', 'Email', { type: 'email', autoComplete: 'email' })}
            </div>
            {field('businessPassword', 'Password', { type: 'password', autoComplete: 'new-password' })}
            {field('verifyPassword', 'Verify Password', {
              type: 'password',
              autoComplete: 'new-password',
            })}
          </fieldset>

          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-lg font-semibold text-ink">
              Online <Optional />
            </legend>
            <p className="text-sm text-slate-600 sm:col-span-2">
              Addresses without a scheme get <code>https://</code> in front.
            </p>
            {URL_FIELD_LABELS.map(([name, label]) => (
              <div key={name}>{field(name, label, { type: 'url', autoComplete: 'url', url: true })}</div>
            ))}
          </fieldset>

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
