import { renderToString } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { useCheckedForm, type FormReply } from '#app/components/checked-form.tsx'
import { zodCheck } from '#app/components/zod-check.ts'
import { fieldControlProps, FormField, type FieldState } from '#app/components/form-field.tsx'

function render(field: FieldState, extra: { description?: string } = {}) {
  return renderToString(
    <FormField field={field} label="Email" {...extra}>
      {(control) => <input name="email" {...control} />}
    </FormField>,
  )
}

/** The opening tag of the element with this id. */
function tagWithId(html: string, id: string) {
  return new RegExp(`<[a-z]+ [^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? ''
}

describe('FormField', () => {
  test('a valid field: the label names the control, which is neither invalid nor described by errors', () => {
    const html = render({ id: 'f-email', errorId: 'f-email-error' })
    expect(html).toContain('<label for="f-email"')
    const input = tagWithId(html, 'f-email')
    expect(input).toMatch(/^<input/)
    expect(input).not.toContain('aria-invalid')
    expect(input).not.toContain('aria-describedby')
    expect(html).not.toContain('role="alert"')
    expect(html).not.toContain('f-email-error')
  })

  test('errors: the message is shown in a live region under its id, and the control is invalid and described by it', () => {
    const html = render({
      id: 'f-email',
      errorId: 'f-email-error',
      errors: ['Please enter your email address'],
    })
    const input = tagWithId(html, 'f-email')
    expect(input).toContain('aria-invalid="true"')
    expect(input).toContain('aria-describedby="f-email-error"')
    expect(html).toMatch(
      /<div role="alert"><p id="f-email-error" class="[^"]*">Please enter your email address<\/p><\/div>/,
    )
  })

  test('several errors are read together; the description is read before them', () => {
    const html = render(
      { id: 'f-email', errorId: 'f-email-error', errors: ['Too long', 'Not an email'] },
      { description: 'Your work address' },
    )
    expect(tagWithId(html, 'f-email')).toContain('aria-describedby="f-email-description f-email-error"')
    expect(html).toMatch(/<p id="f-email-description"[^>]*>Your work address<\/p>/)
    expect(html).toMatch(/<p id="f-email-error"[^>]*>Too long Not an email<\/p>/)
  })

  test('the category group: a fieldset is described by its errors through the same wiring', () => {
    expect(fieldControlProps({ id: 'g', errorId: 'g-error' })['aria-describedby']).toBeUndefined()
    expect(fieldControlProps({ id: 'g', errorId: 'g-error', errors: ['Choose one'] })).toEqual({
      id: 'g',
      'aria-invalid': true,
      'aria-describedby': 'g-error',
    })
  })
})

const schema = z.object({
  email: z
    .string({ error: 'Please enter your email address' })
    .pipe(z.email('Please enter a valid email address')),
  name: z.string().max(3, 'At most 3 characters').optional(),
})

function SignUp({ reply }: { reply: FormReply }) {
  const { formProps, field } = useCheckedForm({ id: 'sign-up', reply, check: zodCheck(schema) })
  const email = field('email')
  return (
    <form {...formProps}>
      <FormField field={email} label="Email">
        {(control) => <input {...email.inputProps} {...control} />}
      </FormField>
    </form>
  )
}

describe('the form recipe: the server reply drawn by useCheckedForm and FormField', () => {
  test('a refused post shows the value sent back and the message at its field, wired to the input', () => {
    const html = renderToString(
      <SignUp
        reply={{ initialValue: { email: 'ann@' }, error: { email: ['Please enter a valid email address'] } }}
      />,
    )
    const input = tagWithId(html, 'sign-up-email')
    expect(input).toContain('name="email"')
    expect(input).toContain('value="ann@"')
    expect(input).toContain('aria-invalid="true"')
    expect(input).toContain('aria-describedby="sign-up-email-error"')
    expect(html).toContain('>Please enter a valid email address</p>')
  })

  test("zodCheck reads the form as the server does: an empty field is absent, each field's first message", () => {
    const check = zodCheck(schema)
    expect(check({}, { email: [''], name: [''] })).toEqual({ email: 'Please enter your email address' })
    expect(check({}, { email: ['ann'], name: ['Annabel'] })).toEqual({
      email: 'Please enter a valid email address',
      name: 'At most 3 characters',
    })
    expect(check({}, { email: ['ann@example.com'], name: ['Ann'] })).toEqual({})
  })
})
