import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { HIDDEN_TOKEN, withTokensHidden } from '#app/models/mail/hidden-tokens.ts'
import { unsubscribeHeaders, confirmSubscriptionMail } from '#app/models/subscriptions/subscription-mail.ts'

const ORIGIN = 'https://events.example'
const TOKEN = `42.confirm.1893456000.${'A1b-_'.repeat(8)}xyz`
const MANAGE = `42.manage.9999999999.${'Zz9_-'.repeat(8)}abc`
const link = (path: string, token: string) => `${ORIGIN}${path}?token=${encodeURIComponent(token)}`

/** Every `token` value left in `text`: none but the hidden mark may remain. */
const tokenValues = (text: string) => [...text.matchAll(/token(?:=|%3D)([^\s"'<>&#]*)/gi)].map((m) => m[1])

describe('withTokensHidden', () => {
  test('a subscriber’s email keeps what each link is for, in its text and HTML, and loses every token', () => {
    const links = {
      manage: link('/subscriptions/manage', MANAGE),
      unsubscribe: link('/subscriptions/unsubscribe', MANAGE),
    }
    const mail = confirmSubscriptionMail({
      what: 'Upcoming events: Keyword “jazz”',
      confirmHref: link('/subscriptions/confirm', TOKEN),
      links,
    })
    const text = withTokensHidden(mail.text)
    const html = withTokensHidden(mail.html)
    for (const shown of [text, html]) {
      expect(shown).not.toContain(TOKEN)
      expect(shown).not.toContain(MANAGE)
      expect(shown).not.toContain(MANAGE.split('.').at(-1))
      expect(tokenValues(shown).every((value) => value === HIDDEN_TOKEN)).toBe(true)
    }
    expect(text).toContain(`Confirm my subscription: ${ORIGIN}/subscriptions/confirm?token=[hidden]\n`)
    expect(text).toContain(`Unsubscribe: ${ORIGIN}/subscriptions/unsubscribe?token=[hidden]\n`)
    expect(html).toContain(
      `<a href="${ORIGIN}/subscriptions/confirm?token=[hidden]">Confirm my subscription</a>`,
    )
    expect(withTokensHidden(unsubscribeHeaders(links)['List-Unsubscribe']!)).toBe(
      `<${ORIGIN}/subscriptions/unsubscribe?token=[hidden]>`,
    )
  })

  test('finds the parameter however it is written: after &, &amp;, in another link’s parameter, in capitals', () => {
    const cases: Array<[string, string]> = [
      [`/x?a=1&token=${TOKEN}&b=2`, '/x?a=1&token=[hidden]&b=2'],
      [`<a href="/x?a=1&amp;token=${TOKEN}&amp;b=2">`, '<a href="/x?a=1&amp;token=[hidden]&amp;b=2">'],
      [`/x?a=1&#38;token=${TOKEN}`, '/x?a=1&#38;token=[hidden]'],
      [
        `/go?next=%2Fsubscriptions%2Fconfirm%3Ftoken%3D${TOKEN}`,
        '/go?next=%2Fsubscriptions%2Fconfirm%3Ftoken%3D[hidden]',
      ],
      [`/x?a=%26token%3D${TOKEN}`, '/x?a=%26token%3D[hidden]'],
      [`/x?TOKEN=${TOKEN}`, '/x?TOKEN=[hidden]'],
      [`/x?token=${TOKEN}#top`, '/x?token=[hidden]#top'],
      [`'/x?token=${TOKEN}'`, `'/x?token=[hidden]'`],
      [`(/x?token=${TOKEN})\n`, '(/x?token=[hidden]\n'],
    ]
    for (const [given, shown] of cases) expect(withTokensHidden(given), given).toBe(shown)
  })

  test('leaves the rest alone: other parameters, words, an empty token, and what is already hidden', () => {
    for (const text of [
      'Your tokens are safe.',
      '/calendar?keyword=token&from=2026-01-01',
      '/x?mytoken=abc',
      '/x?token=',
      '/x?token=[hidden]',
      'token=abc (not a link’s parameter)',
    ])
      expect(withTokensHidden(text), text).toBe(text)
  })

  // encodeURIComponent leaves an apostrophe as it is, where a quoted attribute would end: no token has one.
  const anyToken = fc.string({ minLength: 1, maxLength: 80 }).filter((token) => !token.includes("'"))

  test('any token, encoded as a link carries it, is hidden whole', () => {
    fc.assert(
      fc.property(anyToken, fc.boolean(), (token, asHtml) => {
        const href = link('/subscriptions/manage', token)
        const given = asHtml ? `<a href="${href.replace(/&/g, '&amp;')}">Manage</a>` : `Manage: ${href}\n`
        const shown = asHtml
          ? `<a href="${ORIGIN}/subscriptions/manage?token=[hidden]">Manage</a>`
          : `Manage: ${ORIGIN}/subscriptions/manage?token=[hidden]\n`
        expect(withTokensHidden(given)).toBe(shown)
      }),
    )
  })
})
