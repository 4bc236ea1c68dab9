import { expect, test } from 'vitest'
import { isHttpsUrl } from '#app/models/ads/practical-facts.ts'

test('an https:// address with a host is a link a visitor may follow', () => {
  expect(isHttpsUrl('https://tickets.example/jazz?night=fri')).toBe(true)
  expect(isHttpsUrl('HTTPS://Tickets.Example/jazz')).toBe(true)
})

test('no link, bare words, other schemes, credentials and spaces are not', () => {
  for (const value of [
    '',
    'tickets',
    'tickets.example',
    'http://tickets.example',
    'javascript:alert(1)',
    'https://',
    'https:tickets.example',
    'https://user:secret@tickets.example',
    ' https://tickets.example',
    'https://tickets.example/a b',
  ])
    expect(isHttpsUrl(value), JSON.stringify(value)).toBe(false)
})
