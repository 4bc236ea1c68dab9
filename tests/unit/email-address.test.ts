import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { registrationSchema } from '#app/models/accounts/business-schema.ts'
import { registrationFieldProblem } from '#app/models/accounts/registration-rules.ts'
import { isPlainEmail, mailboxKey } from '#app/models/platform/email-address.ts'
import { emailProblem, SUBSCRIPTION_TEXT } from '#app/models/subscriptions/subscription-rules.ts'
import { HOSTILE_EMAILS } from '#tests/support/hostile-emails.ts'

const NORMAL = [
  'name@example.com',
  'Owner@BlueDoor.Example',
  'first.last@mail.example.co.uk',
  "o'brien@example.ie",
  'box+news@example.com',
  'under_score-dash@sub-domain.example.org',
  'x@y.io',
]

const HOSTILE = [...HOSTILE_EMAILS, 'box@example.com\r\nBcc: other@example.com']

describe('the plain address rule', () => {
  test('takes the addresses zod’s z.email() takes, and no other, so the browser and the server agree', () => {
    const zodEmail = z.email()
    for (const address of [
      ...NORMAL,
      ...HOSTILE,
      'not-an-address',
      'a@b',
      '.a@example.com',
      'a..b@example.com',
    ]) {
      expect(isPlainEmail(address), address).toBe(zodEmail.safeParse(address).success)
    }
    for (const address of NORMAL) expect(isPlainEmail(address), address).toBe(true)
  })

  test('refuses a comment, a name, brackets, quotes or a list in every email field', () => {
    for (const address of HOSTILE) {
      expect(isPlainEmail(address), address).toBe(false)
      expect(emailProblem(address), address).toBe(SUBSCRIPTION_TEXT.emailPlainOnly)
      // The registration page's browser check is the looser sign-in one; the server's schema decides.
      const registration = registrationSchema.safeParse({ businessEmail: address })
      expect(registration.error?.issues.find((i) => i.path[0] === 'businessEmail')?.message, address).toBe(
        'Please enter a valid email address',
      )
    }
    expect(emailProblem('not-an-address')).toBe(SUBSCRIPTION_TEXT.emailInvalid)
  })

  test('registration takes every normal address it took before', () => {
    for (const address of NORMAL) {
      expect(registrationFieldProblem('businessEmail', { businessEmail: address }), address).toBeUndefined()
    }
  })

  test('one mailbox however it is written: lower-cased, without its +tag', () => {
    for (const written of [
      'box@example.com',
      ' BOX@Example.COM ',
      'box+news@example.com',
      'Box+2@EXAMPLE.com',
    ]) {
      expect(mailboxKey(written), written).toBe('box@example.com')
    }
    expect(mailboxKey('other@example.com')).not.toBe(mailboxKey('box@example.com'))
    expect(mailboxKey('box@other.example')).not.toBe(mailboxKey('box@example.com'))
  })
})
