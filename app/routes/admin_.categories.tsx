import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useMemo } from 'react'
import { useCheckedForm } from '#app/components/checked-form.tsx'
import { zodCheck } from '#app/components/zod-check.ts'
import { FormField } from '#app/components/form-field.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { CATEGORY_NAME_MAX, categoryFormSchema } from '#app/models/ads/category-schema.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { categoriesPage, changeCategory } from '#app/services/ads/categories.server.ts'
import { parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'

const CATEGORIES_TITLE = 'Categories'

export const meta: MetaFunction = () => [{ title: `${CATEGORIES_TITLE} · ${PRODUCT_NAME}` }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return data({ categories: await categoriesPage() }, { headers: { 'Cache-Control': 'no-store' } })
}

/** A refusal: its message for the page, and which form it belongs to (the category's id; '' for the add form). */
function refused(message: string, status: number, categoryID: string) {
  return data({ message, categoryID }, { status })
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, 'admin')
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const categoryID = String(form.get('categoryID') ?? '')
  const submission = parseFormSubmission(form, categoryFormSchema)
  if (submission.status !== 'success') {
    const messages = Object.values(submission.error ?? {}).flat()
    return refused(messages.join(' ') || 'The form could not be read', 400, categoryID)
  }
  try {
    return redirectWithToast('/admin/categories', await changeCategory(submission.value))
  } catch (error) {
    return errorResponse(error, { request, reply: (refusal) => ({ message: refusal.message, categoryID }) })
  }
}

const input = 'rounded-md border border-slate-300 px-3 py-2'
const button = 'rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50'

type Refusal = { message: string; categoryID: string } | undefined

const checkCategory = zodCheck(categoryFormSchema)

/**
 * A form that names a category (add, or rename one): the name's input and the button, with a refusal of this form
 * (`categoryID` '' for the add form) shown at the name.
 */
function CategoryNameForm({
  id,
  categoryID,
  label,
  labelClassName,
  defaultName,
  intent,
  buttonLabel,
  refused,
  className,
}: {
  id: string
  categoryID: string
  label: string
  labelClassName: string
  defaultName?: string
  intent: 'add' | 'rename'
  buttonLabel: string
  refused: Refusal
  className?: string
}) {
  const mine = refused && refused.categoryID === categoryID ? refused.message : null
  const reply = useMemo(() => (mine ? { error: { name: [mine] } } : null), [mine])
  const { formProps, field } = useCheckedForm({
    id,
    reply,
    check: checkCategory,
    defaultValue: { name: defaultName },
    browserChecksWithoutJs: true,
  })
  const name = field('name')
  return (
    <Form method="post" {...formProps} className={className}>
      {categoryID ? <input type="hidden" name="categoryID" value={categoryID} /> : null}
      <FormField field={name} label={label} labelClassName={labelClassName}>
        {(control) => (
          <div className={`flex flex-wrap gap-2 ${categoryID ? '' : 'mt-1'}`}>
            <input
              {...name.inputProps}
              {...control}
              required
              maxLength={CATEGORY_NAME_MAX}
              className={input}
            />
            <button type="submit" name="intent" value={intent} className={button}>
              {buttonLabel}
            </button>
          </div>
        )}
      </FormField>
    </Form>
  )
}

export default function AdminCategories() {
  const { categories } = useLoaderData<typeof loader>()
  const failed = useActionData<typeof action>()
  const known = new Set(categories.map((c) => String(c.categoryID)))
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold text-ink">{CATEGORIES_TITLE}</h1>
      <p className="mt-2 text-slate-600">
        The categories advertisers choose from, with how many ads have each. A hidden category is not offered
        for new ads or in the calendar's filter; the ads that have it keep it.{' '}
        <Link to="/admin" className="font-medium text-brand-700 underline">
          Back to moderation
        </Link>
      </p>
      {failed && failed.categoryID !== '' && !known.has(failed.categoryID) ? (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {failed.message}
        </p>
      ) : null}

      <CategoryNameForm
        id="new-category"
        categoryID=""
        label="New category"
        labelClassName="block text-sm font-medium text-slate-800"
        intent="add"
        buttonLabel="Add category"
        refused={failed}
        className="mt-6"
      />

      <div className="mt-8 overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="categories">
          <thead>
            <tr className="border-b border-slate-200">
              <th className="py-2 pr-3">Name</th>
              <th className="py-2 pr-3">Ads</th>
              <th className="py-2">Offered</th>
            </tr>
          </thead>
          <tbody>
            {categories.map((c) => (
              <tr key={c.categoryID} className="border-b border-slate-100 align-top">
                <td className="py-2 pr-3">
                  <CategoryNameForm
                    id={`category-${c.categoryID}`}
                    categoryID={String(c.categoryID)}
                    label={`Name of ${c.categoryName}`}
                    labelClassName="sr-only"
                    defaultName={c.categoryName}
                    intent="rename"
                    buttonLabel="Rename"
                    refused={failed}
                  />
                </td>
                <td className="py-2 pr-3">{c.adCount}</td>
                <td className="py-2">
                  <Form method="post" className="flex items-center gap-2">
                    <input type="hidden" name="categoryID" value={c.categoryID} />
                    <span>{c.hidden ? 'Hidden' : 'Yes'}</span>
                    <button type="submit" name="intent" value={c.hidden ? 'show' : 'hide'} className={button}>
                      {c.hidden ? 'Show' : 'Hide'}
                    </button>
                  </Form>
                </td>
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
