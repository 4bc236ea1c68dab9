import { describe, expect, test } from 'vitest'
import { DEFAULT_CATEGORIES } from '#app/constants.ts'
import { ensureCategories } from '#app/models/ads/category.server.ts'
import { loader as categoriesLoader } from '#app/routes/api.categories.ts'
import { loader as chargesLoader } from '#app/routes/api.charges.$days.ts'
import { loader as healthLoader } from '#app/routes/healthz.ts'
import { loader as notFoundLoader } from '#app/routes/$.tsx'
import { callRoute } from '#tests/support/routes.ts'

describe('GET /api/categories', () => {
  test('lists the categories stored in the database', async () => {
    await ensureCategories(DEFAULT_CATEGORIES)
    const res = await callRoute(categoriesLoader, '/api/categories')
    expect(res.status).toBe(200)
    const body = (await res.json()) as Array<{ categoryID: number; categoryName: string }>
    expect(body.map((c) => c.categoryName).sort()).toEqual([...DEFAULT_CATEGORIES].sort())
    expect(body.every((c) => Number.isInteger(c.categoryID))).toBe(true)
  })

  test('adding the same names again creates no duplicates', async () => {
    await ensureCategories(DEFAULT_CATEGORIES)
    // Names already stored, a name twice in one call, and the same call again.
    const again = [DEFAULT_CATEGORIES[0], DEFAULT_CATEGORIES[0], 'Brand New', 'Brand New']
    await ensureCategories(again)
    await ensureCategories(again)
    const body = (await (await callRoute(categoriesLoader, '/api/categories')).json()) as Array<{
      categoryName: string
    }>
    const names = body.map((c) => c.categoryName)
    expect(names.sort()).toEqual([...DEFAULT_CATEGORIES, 'Brand New'].sort())
  })
})

describe('GET /api/charges/{days}', () => {
  test.each([
    ['0', 0],
    ['1', 29],
    ['7', 29],
    ['8', 49],
    ['14', 49],
    ['15', 69],
    ['21', 69],
  ])('%s days → {chargeAmount: %i}', async (days, amount) => {
    const res = await callRoute(chargesLoader, `/api/charges/${days}`, { params: { days } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ chargeAmount: amount })
  })

  test.each(['22', '-1', '1.5', 'seven', '', '99999'])('%j is a 400 with a JSON message', async (days) => {
    const res = await callRoute(chargesLoader, `/api/charges/${days}`, { params: { days } })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { message: string }
    expect(body.message).toMatch(/.+/)
  })

  test('22 days gives the spec message', async () => {
    const res = await callRoute(chargesLoader, '/api/charges/22', { params: { days: '22' } })
    expect(await res.json()).toEqual({ message: 'Max number for any event or special is 21 days' })
  })
})

describe('GET /healthz', () => {
  test('answers ok after querying the database', async () => {
    const res = await callRoute(healthLoader, '/healthz')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok', database: 'ok' })
  })
})

test('an unknown path answers 404', async () => {
  const res = await callRoute(notFoundLoader, '/no/such/page')
  expect(res.status).toBe(404)
})
