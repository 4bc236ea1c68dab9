import fs from 'node:fs'
import zlib from 'node:zlib'
import { builtClientFile } from '#tests/support/built-app.ts'

/** Script types that browsers do not run (structured data): not JavaScript, not counted. */
export const DATA_SCRIPT_TYPES = new Set(['application/ld+json', 'application/json'])

export function attribute(attributes: string, name: string) {
  const match = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attributes)
  return match ? (match[2] ?? match[3] ?? match[4] ?? '') : null
}

const gzipSize = (content: Buffer | string) => zlib.gzipSync(content).length

export interface LoadedScript {
  kind: 'inline' | 'src' | 'modulepreload'
  name: string
  gzipBytes: number
}

/** Every script a built page makes the browser load or run: inline scripts, script src and module preloads. */
export function scriptsOf(html: string): LoadedScript[] {
  const scripts: LoadedScript[] = []
  for (const [, attributes = '', body = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const type = (attribute(attributes, 'type') ?? '').toLowerCase()
    if (DATA_SCRIPT_TYPES.has(type)) continue
    const src = attribute(attributes, 'src')
    if (src)
      scripts.push({ kind: 'src', name: src, gzipBytes: gzipSize(fs.readFileSync(builtClientFile(src))) })
    if (body.trim()) scripts.push({ kind: 'inline', name: body.slice(0, 40), gzipBytes: gzipSize(body) })
  }
  for (const [, attributes = ''] of html.matchAll(/<link\b([^>]*)>/gi)) {
    if ((attribute(attributes, 'rel') ?? '').toLowerCase() !== 'modulepreload') continue
    const href = attribute(attributes, 'href')!
    scripts.push({
      kind: 'modulepreload',
      name: href,
      gzipBytes: gzipSize(fs.readFileSync(builtClientFile(href))),
    })
  }
  return scripts
}

export const totalGzipBytes = (scripts: LoadedScript[]) => scripts.reduce((sum, s) => sum + s.gzipBytes, 0)
