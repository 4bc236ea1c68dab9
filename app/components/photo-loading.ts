import type { ImgHTMLAttributes } from 'react'

/** The first photo on the screen is fetched first; photos further down wait until they are near. */
export type PhotoPriority = 'high' | 'lazy'

/** `fetchpriority` in lower case: this React version passes it through only so. */
export function photoLoadingProps(priority: PhotoPriority | undefined): ImgHTMLAttributes<HTMLImageElement> {
  if (priority === 'high') return { fetchpriority: 'high' } as ImgHTMLAttributes<HTMLImageElement>
  if (priority === 'lazy') return { loading: 'lazy' }
  return {}
}
