import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'

const APP = join(import.meta.dirname, '../../app')

/** The brand shades as the stylesheet defines them. */
function brandShades() {
  const css = readFileSync(join(APP, 'tailwind.css'), 'utf8')
  return new Map([...css.matchAll(/--color-brand-(\d+):\s*(#[\da-f]{6})/gi)].map((m) => [m[1]!, m[2]!]))
}

/** WCAG 2.2 relative luminance and contrast ratio. */
function luminance(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}
function contrast(a: string, b: string) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) ? [readFileSync(path, 'utf8')] : []
  })
}

/** Every string in the app's components and pages that names a brand colour (class lists, one at a time). */
const classLists = sources(APP).flatMap((text) =>
  [...text.matchAll(/"([^"\n]*)"|'([^'\n]*)'|`([^`]*)`/g)]
    .map((m) => m[1] ?? m[2] ?? m[3] ?? '')
    .filter((list) => /(?:bg|text)-brand-\d/.test(list)),
)

test('white text on a brand shade meets WCAG AA (4.5:1), also on hover', () => {
  const shades = brandShades()
  const onBrand = classLists.filter((list) => /\btext-white\b/.test(list) && /bg-brand-\d+/.test(list))
  expect(onBrand.length).toBeGreaterThan(5)
  const used = new Set(onBrand.flatMap((list) => [...list.matchAll(/bg-brand-(\d+)/g)].map((m) => m[1]!)))
  for (const shade of used) {
    expect(shades.get(shade), `brand-${shade} is defined`).toBeDefined()
    expect(contrast('#ffffff', shades.get(shade)!), `white on brand-${shade}`).toBeGreaterThanOrEqual(4.5)
  }
  // The shade the buttons use: the old #ea580c gave 3.56:1.
  expect(contrast('#ffffff', '#ea580c')).toBeLessThan(4.5)
})

test('brand-coloured text on white meets WCAG AA', () => {
  const shades = brandShades()
  const used = new Set(
    classLists.flatMap((list) => [...list.matchAll(/(?:^|\s)text-brand-(\d+)/g)].map((m) => m[1]!)),
  )
  expect(used.size).toBeGreaterThan(0)
  for (const shade of used) {
    expect(contrast('#ffffff', shades.get(shade)!), `brand-${shade} on white`).toBeGreaterThanOrEqual(4.5)
  }
})
