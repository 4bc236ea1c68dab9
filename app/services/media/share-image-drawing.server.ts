/**
 * Drawing an event's share images with sharp: its photo cover-cropped to the size, or its title, wrapped, on the
 * brand colour (an SVG that libvips renders). Both come out as JPEG.
 */
import { PRODUCT_NAME } from '#app/constants.ts'
import { PHOTO_MAX_PIXELS, sharp } from './media-content.server.ts'

/** `--color-brand-600` and `--color-brand-700` of app/tailwind.css: white text on them is 5.2:1 and 7.3:1. */
const BRAND = '#c2410c'
const BRAND_DARK = '#9a3412'
/** Fonts libvips finds through fontconfig, the first one installed wins. */
const FONT_FAMILY = 'DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif'
const FONT_SIZES = [112, 96, 84, 72, 62, 54, 46] as const
const LINE_HEIGHT = 1.18
const PADDING = 80
const FOOTER = 96

interface Size {
  width: number
  height: number
}

export async function drawPhotoShareImage(photo: Buffer, { width, height }: Size) {
  return sharp()(photo, { failOn: 'error', limitInputPixels: PHOTO_MAX_PIXELS })
    .resize(width, height, { fit: 'cover', position: sharp().strategy.attention })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer()
}

export async function drawTitleShareImage(title: string, size: Size) {
  return sharp()(Buffer.from(titleCardSvg(title, size)))
    .jpeg({ quality: 90, chromaSubsampling: '4:4:4', mozjpeg: true })
    .toBuffer()
}

/** The title card as SVG: the title as large as it fits in its lines, the product's name in a band below. */
export function titleCardSvg(title: string, { width, height }: Size) {
  const { fontSize, lines } = fitTitle(title, width - 2 * PADDING, height - 2 * PADDING - FOOTER)
  const lineHeight = Math.round(fontSize * LINE_HEIGHT)
  const block = lines.length * lineHeight
  const top = PADDING + Math.max(0, (height - 2 * PADDING - FOOTER - block) / 2)
  const tspans = lines
    .map(
      (line, i) =>
        `<tspan x="${PADDING}" y="${Math.round(top + i * lineHeight + fontSize * 0.9)}">${escapeXml(line)}</tspan>`,
    )
    .join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<rect width="${width}" height="${height}" fill="${BRAND}"/>
<rect y="${height - FOOTER}" width="${width}" height="${FOOTER}" fill="${BRAND_DARK}"/>
<text font-family="${FONT_FAMILY}" font-weight="700" font-size="${fontSize}" fill="#ffffff" xml:space="preserve">${tspans}</text>
<text x="${PADDING}" y="${height - FOOTER / 2 + 14}" font-family="${FONT_FAMILY}" font-weight="700" font-size="40" fill="#ffedd5">${escapeXml(PRODUCT_NAME)}</text>
</svg>`
}

/** XML's five special characters as references; characters XML 1.0 cannot hold at all are dropped. */
export function escapeXml(text: string) {
  return text
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)
}

/**
 * A character's advance in em of a bold sans-serif (DejaVu Sans Bold, measured, rounded up): the lines are wrapped
 * on this estimate, since the SVG renderer does not measure text for us.
 */
function advance(char: string) {
  if (char === ' ') return 0.35
  if (/[iIjl.,:;!|'`]/.test(char)) return 0.36
  if (/[frt()[\]{}\-/]/.test(char)) return 0.5
  if (/[mwMW@%]/.test(char)) return 1.1
  if (/[A-Z]/.test(char)) return 0.8
  if (/[0-9a-z]/.test(char)) return 0.7
  return (char.codePointAt(0) ?? 0) >= 0x2e80 ? 1.05 : 0.8
}

const widthOf = (text: string) => Array.from(text).reduce((sum, char) => sum + advance(char), 0)

/** Greedy word wrap at `maxEm` em per line; a word longer than a line is cut where it must. */
function wrap(text: string, maxEm: number) {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ').filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word
    if (widthOf(candidate) <= maxEm) {
      line = candidate
      continue
    }
    if (line) lines.push(line)
    line = ''
    let rest = word
    while (widthOf(rest) > maxEm) {
      let cut = ''
      for (const char of rest) {
        if (widthOf(cut + char) > maxEm) break
        cut += char
      }
      cut ||= Array.from(rest)[0]!
      lines.push(cut)
      rest = rest.slice(cut.length)
    }
    line = rest
  }
  if (line) lines.push(line)
  return lines
}

/** The largest size at which the wrapped title fits the box; at the smallest, its last line ends with "…". */
function fitTitle(title: string, boxWidth: number, boxHeight: number) {
  const text = title.replace(/\s+/g, ' ').trim() || PRODUCT_NAME
  for (const fontSize of FONT_SIZES) {
    const lines = wrap(text, boxWidth / fontSize)
    if (lines.length * fontSize * LINE_HEIGHT <= boxHeight) return { fontSize, lines }
  }
  const fontSize = FONT_SIZES.at(-1)!
  const maxEm = boxWidth / fontSize
  const fitting = Math.max(1, Math.floor(boxHeight / (fontSize * LINE_HEIGHT)))
  const lines = wrap(text, maxEm).slice(0, fitting)
  let last = lines.pop() ?? ''
  while (last && widthOf(`${last}…`) > maxEm) last = Array.from(last).slice(0, -1).join('')
  lines.push(`${last.trimEnd()}…`)
  return { fontSize, lines }
}
