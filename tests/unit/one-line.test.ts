import { describe, expect, test } from 'vitest'
import { composeMail } from '#app/models/mail/mail-templates.ts'
import { oneLine } from '#app/utils/format.ts'

describe('oneLine', () => {
  test.each([
    ['Open\r\nmic', 'Open mic'],
    ['Open \n\n mic', 'Open mic'],
    ['a\rb\u2028c\u2029d\u0085e\vf\fg', 'a b c d e f g'],
    ['\nTitle\n', 'Title'],
    ['7:30 PM  Title', '7:30 PM  Title'],
  ])('%j → %j', (typed, shown) => {
    expect(oneLine(typed)).toBe(shown)
  })
})

test("an email's rows, links and subject are one line each; its paragraphs keep their lines", () => {
  const mail = composeMail('Your ad\r\nBcc: someone', [
    { paragraph: 'First line.\nSecond line.' },
    { rows: [['Ad', 'Open\nmic\r\nnight']] },
    { link: 'See\nit', href: 'https://shout.example/event/1' },
  ])
  expect(mail.subject).toBe('Your ad Bcc: someone')
  expect(mail.text.split('\n')).toEqual([
    'First line.',
    'Second line.',
    '',
    'Ad: Open mic night',
    '',
    'See it: https://shout.example/event/1',
    '',
    expect.stringMatching(/^— /),
    '',
  ])
})
