/**
 * Reads CSV as a spreadsheet does (RFC 4180): cells separated by `separator`, a quoted cell may hold the separator,
 * line breaks and doubled quotes. Returns the lines, each a list of cells; the line break after the last line ends it.
 */
export function parseCsv(text: string, separator = ','): string[][] {
  const lines: string[][] = []
  let line: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (char === '"') quoted = false
      else cell += char
    } else if (char === '"') quoted = true
    else if (char === separator) {
      line.push(cell)
      cell = ''
    } else if (char === '\n' || (char === '\r' && text[i + 1] === '\n')) {
      line.push(cell)
      lines.push(line)
      line = []
      cell = ''
      if (char === '\r') i++
    } else cell += char
  }
  if (cell !== '' || line.length) lines.push([...line, cell])
  return lines
}
