import type { RefObject } from 'react'
import { PHOTO_MAX_BYTES, VIDEO_MAX_BYTES } from '#app/constants.ts'
import { FormField } from '#app/components/form-field.tsx'
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
  freeNotes,
}: {
  /** What a free listing leaves out (no photo, no video), when the ad is free. */
  freeNotes?: { photo: string | null; video: string | null } | null
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
      <FormField
        field={{ ...photo, id: 'image' }}
        label="Photo"
        labelClassName="block font-medium"
        description={`Image files up to ${PHOTO_MAX_BYTES / 1024 / 1024}MB.${freeNotes?.photo ? ` ${freeNotes.photo}` : ''}`}
      >
        {(control) => (
          <>
            <input
              ref={photoRef}
              {...control}
              type="file"
              name="image"
              accept="image/jpeg,image/png,image/webp,image/gif"
              onChange={() => onPhotoName(photoRef.current?.files?.[0]?.name ?? '')}
              className="mt-1 block w-full text-sm"
            />
            {keepsPhoto ? <KeptMediaNote kind="photo" /> : null}
          </>
        )}
      </FormField>
      <FormField
        field={{ ...video, id: 'video' }}
        label={
          <>
            Video <span className="font-normal text-slate-500">(optional)</span>
          </>
        }
        labelClassName="block font-medium"
        description={`MP4, WebM or Ogg, under ${VIDEO_MAX_BYTES / 1024 / 1024}MB.${freeNotes?.video ? ` ${freeNotes.video}` : ''}`}
      >
        {(control) => (
          <>
            <input
              ref={videoRef}
              {...control}
              type="file"
              name="video"
              accept="video/mp4,video/webm,video/ogg"
              onChange={onVideoChange}
              className="mt-1 block w-full text-sm"
            />
            {keepsVideo ? <KeptMediaNote kind="video" /> : null}
          </>
        )}
      </FormField>
    </div>
  )
}

function KeptMediaNote({ kind }: { kind: 'photo' | 'video' }) {
  return (
    <p className="mt-1 text-xs text-slate-700">Your current {kind} stays unless you choose a new file.</p>
  )
}
