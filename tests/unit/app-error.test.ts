import { describe, expect, test } from 'vitest'
import { AppError, appErrorResponse, invariantAppError } from '#app/utils/app-error.ts'

describe('AppError → response', () => {
  test('a plain refusal answers its status with { message }', async () => {
    const response = appErrorResponse(new AppError('Event not found', 404))
    expect(response.status).toBe(404)
    expect(response.headers.get('Content-Type')).toMatch(/application\/json/)
    expect(await response.json()).toEqual({ message: 'Event not found' })
  })

  test('code, field errors and Retry-After travel with it', async () => {
    const error = new AppError('Too many sign-ins at once.', 503, {
      code: 'busy',
      fieldErrors: { businessEmail: ['Taken'] },
      retryAfterSeconds: 2,
    })
    const response = appErrorResponse(error, { headers: { 'Cache-Control': 'no-store' } })
    expect(response.status).toBe(503)
    expect(response.headers.get('Retry-After')).toBe('2')
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(await response.json()).toEqual({
      message: 'Too many sign-ins at once.',
      code: 'busy',
      errors: { businessEmail: ['Taken'] },
    })
  })

  test('400 by default; invariantAppError throws only when the condition fails (404 by default)', () => {
    expect(new AppError('Bad').status).toBe(400)
    expect(() => invariantAppError(1, 'never')).not.toThrow()
    expect(() => invariantAppError(null, 'Business not found')).toThrow(
      expect.objectContaining({ status: 404, message: 'Business not found' }),
    )
  })
})
