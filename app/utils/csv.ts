/**
 * CSV as spreadsheets read it (RFC 4180, CRLF line ends). Every cell is quoted, so no separator splits one, whatever
 * the spreadsheet takes for a separator (a comma, or a semicolon in many locales). A text cell that starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return (OWASP's list of what a spreadsheet may run as a formula) gets a leading
 * `'`, so it is shown as the text it is.
 */

export type CsvValue = string | number | null

const FORMULA_START = /^[=+\-@\t\r]/

/** One cell: quoted, its quotes doubled, text that could run as a formula kept as text; null is empty. */
export function csvCell(value: CsvValue): string {
  const text = value === null ? '' : String(value)
  const safe = typeof value === 'string' && FORMULA_START.test(text) ? `'${text}` : text
  return `"${safe.replaceAll('"', '""')}"`
}

/** Lines of cells as a CSV document: a header line first if there is one, each line ended by CRLF. */
export function toCsv(lines: ReadonlyArray<readonly CsvValue[]>): string {
  return lines.map((line) => `${line.map(csvCell).join(',')}\r\n`).join('')
}
