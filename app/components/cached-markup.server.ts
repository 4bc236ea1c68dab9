import type { ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'

/** Room for a few thousand event tiles: keys and HTML together, counted in characters. */
const MAX_CACHED_CHARACTERS = 8_000_000

/**
 * A static-markup renderer that keeps what it rendered, least recently used first out. The key names the whole
 * content, so a changed event gets a new key and nothing needs to be invalidated.
 */
export function createCachedMarkupRenderer(maxCharacters = MAX_CACHED_CHARACTERS) {
  const rendered = new Map<string, string>()
  let characters = 0
  function render(key: string, element: ReactElement) {
    const kept = rendered.get(key)
    if (kept !== undefined) {
      rendered.delete(key)
      rendered.set(key, kept)
      return kept
    }
    const html = renderToStaticMarkup(element)
    rendered.set(key, html)
    characters += key.length + html.length
    for (const [oldKey, oldHtml] of rendered) {
      if (characters <= maxCharacters) break
      rendered.delete(oldKey)
      characters -= oldKey.length + oldHtml.length
    }
    return html
  }
  return Object.assign(render, { size: () => rendered.size })
}
