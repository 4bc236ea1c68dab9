import type { RefObject } from 'react'
import { PHOTO_MAX_BYTES, VIDEO_MAX_BYTES } from '#app/constants.ts'
import { FieldError } from './field-error.tsx'
import type { CheckedField } from './values.ts'

export const VIDEO_TOO_LARGE_MESSAGE = 'Video file must be under 50MB'

/** The photo and video file inputs; a video over the limit is refused at once, before any upload. */
export function MediaInputs({
  photoRef,
  videoRef,
  onPhotoName,
  onVideoName,
  keepsPhoto,
  keepsVideo,
  field,
}: {
  photoRef: RefObject<HTMLInputElement>
  videoRef: RefObject<HTMLInputElement>
  onPhotoName: (name: string) => void
  onVideoName: (name: string) => void
  /** Editing a saved ad that has media: it stays unless a new file is chosen. */
  keepsPhoto: boolean
  keepsVideo: boolean
  field: (name: string) => CheckedField
}) {
  const photo = field('image')
  const video = field('video')
  function onVideoChange() {
    const file = videoRef.current?.files?.[0]
    if (file && file.size > VIDEO_MAX_BYTES) {
      window.alert(VIDEO_TOO_LARGE_MESSAGE)
      videoRef.current!.value = ''
      onVideoName('')
      return
    }
    onVideoName(file?.name ?? '')
  }

  return (
    <div className="grid gap-6 md:grid-cols-2">
      <div>
        <label htmlFor="image" className="block font-medium">
          Photo
        </label>
        <input
          ref={photoRef}
          id="image"
          type="file"
          name="image"
          accept="image/jpeg,image/png,image/webp,image/gif"
          onChange={() => onPhotoName(photoRef.current?.files?.[0]?.name ?? '')}
          {...photo.aria}
          className="mt-1 block w-full text-sm"
        />
        <p className="mt-1 text-xs text-slate-500">Image files up to {PHOTO_MAX_BYTES / 1024 / 1024}MB.</p>
        {keepsPhoto ? <KeptMediaNote kind="photo" /> : null}
        <FieldError id={photo.errorId} messages={photo.errors} />
      </div>
      <div>
        <label htmlFor="video" className="block font-medium">
          Video <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input
          ref={videoRef}
          id="video"
          type="file"
          name="video"
          accept="video/mp4,video/webm,video/ogg"
          onChange={onVideoChange}
          {...video.aria}
          className="mt-1 block w-full text-sm"
        />
        <p className="mt-1 text-xs text-slate-500">
          MP4, WebM or Ogg, under {VIDEO_MAX_BYTES / 1024 / 1024}MB.
        </p>
        {keepsVideo ? <KeptMediaNote kind="video" /> : null}
        <FieldError id={video.errorId} messages={video.errors} />
      </div>
    </div>
  )
}

function KeptMediaNote({ kind }: { kind: 'photo' | 'video' }) {
  return (
    <p className="mt-1 text-xs text-slate-700">Your current {kind} stays unless you choose a new file.</p>
  )
}
