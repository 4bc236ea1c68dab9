import { createElement } from 'react'
import { describe, expect, test } from 'vitest'
import { createCachedMarkupRenderer } from '#app/components/cached-markup.server.ts'

/** An element whose renders are counted: `<article class="tile">text</article>`, or `<p>text</p>` when plain. */
function counted(text: string, renders: { count: number }, plain = false) {
  function Tile() {
    renders.count++
    return plain ? createElement('p', null, text) : createElement('article', { className: 'tile' }, text)
  }
  return createElement(Tile)
}

describe('the rendered-markup cache', () => {
  test('renders a key once and gives the same HTML back after that', () => {
    const render = createCachedMarkupRenderer()
    const renders = { count: 0 }
    const first = render('tile-1', counted('Jazz night', renders))
    expect(first).toBe('<article class="tile">Jazz night</article>')
    expect(render('tile-1', counted('Jazz night', renders))).toBe(first)
    expect(renders.count).toBe(1)
    expect(render('tile-2', counted('Pancake breakfast', renders))).toBe(
      '<article class="tile">Pancake breakfast</article>',
    )
    expect(renders.count).toBe(2)
  })

  test('escapes what it renders, as a page would', () => {
    const render = createCachedMarkupRenderer()
    expect(render('hostile', createElement('p', null, '<script>alert(1)</script>'))).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>',
    )
  })

  test('keeps at most its size, dropping the least recently used first', () => {
    // Each entry is a 1-character key and 9 characters of HTML (<p>x</p> is 8, plus the key).
    const render = createCachedMarkupRenderer(30)
    const renders = { count: 0 }
    const tile = (key: string) => render(key, counted(key, renders, true))
    tile('a')
    tile('b')
    tile('c')
    expect(render.size()).toBe(3)
    tile('a') // a is now the most recently used
    tile('d') // over 30: b, the least recently used, goes
    expect(render.size()).toBe(3)
    renders.count = 0
    tile('a')
    tile('c')
    tile('d')
    expect(renders.count).toBe(0)
    tile('b')
    expect(renders.count).toBe(1)
  })
})
