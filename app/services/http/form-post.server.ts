/**
 * A form post that changes something and goes back to the page it came from with a toast: its refusals of the
 * fields (the `invalid` and `conflict` AppErrors `refusedAtForm` picks) are drawn on the posting page with the form
 * (`{ result }`, 400/409); any other error goes to the error page (403, 404, …).
 */
import type { ZodType } from 'zod'
import type { AppError } from '#app/utils/app-error.ts'
import { parseFormSubmission } from './form-submission.server.ts'
import { errorResponse } from './http.server.ts'
import { readFormData } from './request-body.server.ts'
import { redirectWithToast } from './toast.server.ts'

export async function answerFormPost(
  request: Request,
  {
    schema,
    change,
    refusedAtForm,
    redirectTo,
  }: {
    /** The form's rules, for the reply that draws the form again. */
    schema: ZodType
    change: (form: FormData) => Promise<{ toast: { title: string; description?: string } }>
    refusedAtForm: (error: unknown) => error is AppError
    redirectTo: string
  },
) {
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, schema)
  try {
    const { toast } = await change(form)
    return redirectWithToast(redirectTo, toast)
  } catch (error) {
    if (!refusedAtForm(error)) throw errorResponse(error, { request })
    return errorResponse(error, {
      request,
      reply: (refusal) => ({
        result: submission.reply(
          Object.keys(refusal.fieldErrors).length
            ? { fieldErrors: refusal.fieldErrors }
            : { formErrors: [refusal.message] },
        ),
      }),
    })
  }
}
