import { expect, test } from 'vitest'
import { csvCell, toCsv } from '#app/utils/csv.ts'
import { parseCsv } from '#tests/support/csv.ts'

test('every cell is quoted, its quotes doubled; null is an empty cell', () => {
  expect(
    toCsv([
      ['a', 'b, "c"'],
      [1, null],
    ]),
  ).toBe('"a","b, ""c"""\r\n"1",""\r\n')
})

test('text a spreadsheet would run as a formula gets a leading quote (OWASP: = + - @ tab CR)', () => {
  for (const formula of ['=1+1', '+1', '-1+2', '@SUM(1)', '\t=1', '\r=1'])
    expect(csvCell(formula)).toBe(`"'${formula}"`)
  for (const text of ['ok;=5+5', ' =1', 'a=b', "'=1"]) expect(csvCell(text)).toBe(`"${text}"`)
  // A number is a number, never a formula.
  expect(csvCell(-3)).toBe('"-3"')
})

test('what is written reads back cell by cell', () => {
  const lines = [
    ['reason', 'n'],
    ['line\r\nbreak, "and" quotes', 2],
  ]
  expect(parseCsv(toCsv(lines))).toEqual([
    ['reason', 'n'],
    ['line\r\nbreak, "and" quotes', '2'],
  ])
})
