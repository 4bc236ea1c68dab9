import { describe, expect, test } from 'vitest'
import { safeRedirect } from '#app/services/http/http.server.ts'

const FALLBACK = '/dashboard'

describe('safeRedirect', () => {
  test.each([
    '/checkout',
    '/admin?date=2026-01-01',
    '/calendar?keyword=jazz%20night&zip=62701',
    '/event/12?viewMode=true#photo',
    '/patient-diseases?search=flu',
    '/',
  ])('a same-site path is kept: %j', (to) => {
    expect(safeRedirect(to, FALLBACK)).toBe(to)
  })

  test.each([
    // Browsers drop tab, CR and LF inside URLs, so these become //evil.example/.
    '/\t/evil.example/',
    '/\n/evil.example/',
    '/\r/evil.example/',
    '/\r\n/evil.example/',
    '\t//evil.example/',
    ' //evil.example/',
    '/%09/evil.example/',
    '/%0a/evil.example/',
    '/%0D%0A/evil.example/',
    '%2F%09%2Fevil.example%2F',
    // Scheme-relative and backslash forms (browsers read \ as / in http URLs).
    '//evil.example/',
    '///evil.example/',
    '/\\evil.example/',
    '\\\\evil.example/',
    '\\/evil.example/',
    '/\\/evil.example/',
    '/.\\evil.example',
    // Encoded variants.
    '/%2Fevil.example/',
    '/%2f%2fevil.example/',
    '%2F%2Fevil.example/',
    '/%5Cevil.example/',
    '/%5cevil.example/',
    '/%252F%252Fevil.example/',
    '/%',
    '/%E0%A4%A',
    // Absolute URLs and other schemes.
    'https://evil.example/',
    'http:evil.example',
    'HTTPS://evil.example',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'evil.example',
    'dashboard',
    // Other control characters.
    '/dash\u0000board',
    '/dash\u007fboard',
    '',
    null,
    undefined,
  ])('a hostile or foreign value falls back: %j', (to) => {
    expect(safeRedirect(to, FALLBACK)).toBe(FALLBACK)
  })

  test('a File from a multipart form is not a path', () => {
    expect(safeRedirect(new File(['/checkout'], 'x.txt'), FALLBACK)).toBe(FALLBACK)
  })

  test('the fallback defaults to the home page', () => {
    expect(safeRedirect('//evil.example/')).toBe('/')
  })
})
