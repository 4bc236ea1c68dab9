import { afterEach, beforeEach, vi, type MockInstance } from 'vitest'

let spy: MockInstance<typeof console.error>

/** A test that logs an error fails, unless it says it expects one (`expectConsoleError()`). */
beforeEach(() => {
  spy = vi.spyOn(console, 'error')
})

afterEach(() => {
  const calls = spy.mock.calls
  const expected = (globalThis as { __expectedConsoleErrors?: number }).__expectedConsoleErrors ?? 0
  ;(globalThis as { __expectedConsoleErrors?: number }).__expectedConsoleErrors = 0
  spy.mockRestore()
  if (calls.length > expected) {
    throw new Error(`console.error was called unexpectedly:\n${calls.map((c) => c.map(String).join(' ')).join('\n')}`)
  }
})

export function expectConsoleError(times = 1) {
  ;(globalThis as { __expectedConsoleErrors?: number }).__expectedConsoleErrors = times
  spy.mockImplementation(() => {})
}
