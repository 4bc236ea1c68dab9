import type { ImgHTMLAttributes } from 'react'
import { photoSrcSet } from '#app/utils/media-types.ts'

/** The first photo on the screen is fetched first; photos further down wait until they are near. */
export type PhotoPriority = 'high' | 'lazy'

/** `fetchpriority` in lower case: this React version passes it through only so. */
export function photoLoadingProps(priority: PhotoPriority | undefined): ImgHTMLAttributes<HTMLImageElement> {
  if (priority === 'high') return { fetchpriority: 'high' } as ImgHTMLAttributes<HTMLImageElement>
  if (priority === 'lazy') return { loading: 'lazy' }
  return {}
}

/** The shape of a photo cut to a wide box (object-cover), as tiles and gallery cards show it. */
export const WIDE_PHOTO_WIDTH = 960
export const WIDE_PHOTO_HEIGHT = 540

/**
 * A stored photo's `<img>` attributes, the one rule for every screen: its 480 and 960 px copies for the browser to
 * choose from by `sizes` (how wide it shows), `width`/`height` so its box is kept before it arrives, and when to
 * fetch it. A URL without the copies (an outside or older file) is offered alone.
 */
export function photoImgProps({
  src,
  sizes,
  width,
  height,
  priority,
}: {
  src: string
  sizes: string
  width: number
  height: number
  priority: PhotoPriority | undefined
}): ImgHTMLAttributes<HTMLImageElement> {
  const srcSet = photoSrcSet(src)
  return {
    ...photoLoadingProps(priority),
    src,
    srcSet: srcSet || undefined,
    sizes: srcSet ? sizes : undefined,
    width,
    height,
    decoding: 'async',
  }
}
