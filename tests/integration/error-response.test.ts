import { describe, expect, test } from 'vitest'
import { action as completeAction } from '#app/routes/api.complete-event-payment.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { AppError, invariantAppError, methodNotAllowed } from '#app/utils/app-error.ts'
import { insertBusiness } from '#db/factories.ts'
import { db } from '#db/client.server.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { expectConsoleError } from '#tests/support/fail-on-console-error.ts'
import { callRoute } from '#tests/support/routes.ts'

describe('errorResponse: the one conversion of what a route caught', () => {
  test('an AppError answers its status with JSON { message, code, title, errors } and its Retry-After', async () => {
    const error = new AppError('Too many sign-ins at once.', 'unavailable', {
      code: 'busy',
      title: 'Login Failed',
      fieldErrors: { businessEmail: ['Taken'] },
      retryAfterSeconds: 2,
    })
    const response = errorResponse(error, { headers: { 'Cache-Control': 'no-store' } })
    expect(response.status).toBe(503)
    expect(response.headers.get('Content-Type')).toMatch(/application\/json/)
    expect(response.headers.get('Retry-After')).toBe('2')
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(await response.json()).toEqual({
      message: 'Too many sign-ins at once.',
      code: 'busy',
      title: 'Login Failed',
      errors: { businessEmail: ['Taken'] },
    })
  })

  test('a plain refusal is { message } alone; a call with a fixed shape adds its fields', async () => {
    expect(await errorResponse(new AppError('Event not found', 'not_found')).json()).toEqual({
      message: 'Event not found',
    })
    const shaped = errorResponse(
      new AppError('Declined', 'payment_refused', { code: 'card_declined', retryAfterSeconds: 30 }),
      {
        fields: () => ({ success: false }),
      },
    )
    expect(shaped.status).toBe(402)
    expect(shaped.headers.get('Retry-After')).toBe('30')
    expect(await shaped.json()).toEqual({ success: false, message: 'Declined', code: 'card_declined' })
  })

  test('the one 405: Method not allowed with the Allow header', async () => {
    const response = errorResponse(methodNotAllowed('GET, POST'))
    expect(response.status).toBe(405)
    expect(response.headers.get('Allow')).toBe('GET, POST')
    expect(await response.json()).toEqual({ message: 'Method not allowed' })
  })

  test('an unknown error is a 500 with a plain message: no stack, no text of the error; it is logged', async () => {
    expectConsoleError()
    const response = errorResponse(new Error('relation "secret_table" does not exist'))
    expect(response.status).toBe(500)
    const body = await response.text()
    expect(JSON.parse(body)).toEqual({ message: 'Something went wrong. Please try again.' })
    expect(body).not.toMatch(/secret_table|at .*\.ts/)
  })

  test('an unknown error takes the caller’s message and status; a database timeout is 504 with the spec’s text', async () => {
    expectConsoleError()
    const failed = errorResponse(new Error('provider down'), {
      unexpectedMessage: 'Try later',
      unexpectedKind: 'upstream_failed',
    })
    expect(failed.status).toBe(502)
    expect(await failed.json()).toEqual({ message: 'Try later' })
    const slow = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })
    const timeout = errorResponse(slow, { unexpectedMessage: 'Try later' })
    expect(timeout.status).toBe(504)
    expect(await timeout.json()).toEqual({
      message: 'Request timed out. Please check your connection and try again.',
    })
  })

  test('a thrown Response (a redirect, a page’s answer) passes through, with the caller’s headers added', async () => {
    const redirect = new Response(null, { status: 302, headers: { Location: '/login' } })
    expect(errorResponse(redirect)).toBe(redirect)
    const kept = errorResponse(redirect, { headers: { 'Cache-Control': 'no-store' } })
    expect(kept.status).toBe(302)
    expect(kept.headers.get('Location')).toBe('/login')
    expect(kept.headers.get('Cache-Control')).toBe('no-store')
  })

  test('a form’s reply gets the refusal’s status and headers; a thrown Response stays thrown', () => {
    const reply = errorResponse(new AppError('Slow down', 'too_many_requests', { retryAfterSeconds: 60 }), {
      reply: (refusal) => ({ error: refusal.message }),
    })
    expect(reply.data).toEqual({ error: 'Slow down' })
    expect(reply.init?.status).toBe(429)
    expect(new Headers(reply.init?.headers).get('Retry-After')).toBe('60')
    const redirect = new Response(null, { status: 302 })
    expect(() => errorResponse(redirect, { reply: () => ({}) })).toThrow(
      expect.objectContaining({ status: 302 }),
    )
  })

  test('invalid (400) by default; invariantAppError throws only when the condition fails (not found by default)', () => {
    expect(new AppError('Bad').kind).toBe('invalid')
    expect(errorResponse(new AppError('Bad')).status).toBe(400)
    expect(() => invariantAppError(1, 'never')).not.toThrow()
    expect(() => invariantAppError(null, 'Business not found')).toThrow(
      expect.objectContaining({ kind: 'not_found', message: 'Business not found' }),
    )
  })
})

describe('POST /api/complete-event-payment keeps a refusal’s headers and code in its { success, message } shape', () => {
  test('a GET: 405 with Allow, and success: false', async () => {
    const response = await callRoute(completeAction, '/api/complete-event-payment', { method: 'GET' })
    expect(response.status).toBe(405)
    expect(response.headers.get('Allow')).toBe('POST')
    expect(await response.json()).toEqual({ success: false, message: 'Method not allowed' })
  })

  test('a body the reader refuses: its status and message, and success: false', async () => {
    const owner = await insertBusiness(db, { businessName: 'Error Channel Diner' })
    const response = await callRoute(completeAction, '/api/complete-event-payment', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Cookie: await sessionCookieFor({ business: owner }) },
      body: 'paymentIntentId=pi_1',
    })
    expect(response.status).toBe(415)
    expect(await response.json()).toEqual({
      success: false,
      message: 'Send a JSON body (Content-Type: application/json)',
    })
  })
})
