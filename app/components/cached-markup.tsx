import { createContext, useContext, type ReactElement } from 'react'

/** Renders `element` to static HTML, or gives back the HTML of an earlier call with the same key. */
export type RenderCachedMarkup = (key: string, element: ReactElement) => string

const CachedMarkupContext = createContext<RenderCachedMarkup | null>(null)

/** Given by the server's render (entry.server); without it, list items render as usual. */
export const CachedMarkupProvider = CachedMarkupContext.Provider

/**
 * A list item whose content is rendered once on the server and reused from then on: the event tiles that every
 * calendar page repeats. `cacheKey` must name everything `children` shows. Only for content without state,
 * effects or context, on pages that are not hydrated.
 */
export function CachedListItem({
  cacheKey,
  className,
  children,
}: {
  cacheKey: string
  className?: string
  children: ReactElement
}) {
  const render = useContext(CachedMarkupContext)
  if (!render) return <li className={className}>{children}</li>
  return <li className={className} dangerouslySetInnerHTML={{ __html: render(cacheKey, children) }} />
}
