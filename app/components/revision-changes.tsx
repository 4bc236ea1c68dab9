/** What an edit of a live ad changes, field by field, as the reviewer sees it. */
import { mediaSrc, videoTypeFromUrl } from '#app/utils/format.ts'
import type { RevisionChange } from '#app/models/moderation/moderation-schema.ts'
import { photoImgProps, WIDE_PHOTO_HEIGHT, WIDE_PHOTO_WIDTH } from './photo-loading.ts'

/** The old and new columns share what the 4xl page leaves beside the field names. */
const CHANGED_PHOTO_SIZES = '(min-width: 56rem) 22rem, 40vw'

function ChangedMedia({ change, which }: { change: RevisionChange; which: 'old' | 'new' }) {
  const src = mediaSrc(change[which])
  if (!src) return <span className="text-slate-500">None</span>
  const label = `${which === 'old' ? 'Live' : 'New'} ${change.kind}`
  return change.kind === 'photo' ? (
    <img
      {...photoImgProps({
        src,
        sizes: CHANGED_PHOTO_SIZES,
        width: WIDE_PHOTO_WIDTH,
        height: WIDE_PHOTO_HEIGHT,
        priority: 'lazy',
      })}
      alt={label}
      className="h-auto max-h-48 w-full rounded-md object-contain"
    />
  ) : (
    <video controls preload="metadata" aria-label={label} className="max-h-48 w-full rounded-md bg-black">
      <source src={src} type={videoTypeFromUrl(src)} />
    </video>
  )
}

/** The revision field by field: the live value beside the new one. */
export function RevisionChanges({ changes }: { changes: RevisionChange[] }) {
  return (
    <table data-testid="revision-changes" className="mt-4 w-full table-fixed border-collapse text-sm">
      <caption className="mb-2 text-left text-sm font-semibold text-slate-600">What changes</caption>
      <thead>
        <tr className="text-left text-slate-500">
          <th scope="col" className="w-32 py-1 font-medium">
            Field
          </th>
          <th scope="col" className="py-1 font-medium">
            Live now
          </th>
          <th scope="col" className="py-1 font-medium">
            New
          </th>
        </tr>
      </thead>
      <tbody>
        {changes.length === 0 ? (
          <tr>
            <td colSpan={3} className="py-2 text-slate-600">
              Nothing: the edit is the same as the live ad.
            </td>
          </tr>
        ) : null}
        {changes.map((change) => (
          <tr key={change.field} data-field={change.field} className="border-t border-slate-200 align-top">
            <th scope="row" className="py-2 pr-2 text-left font-medium text-slate-700">
              {change.label}
            </th>
            {(['old', 'new'] as const).map((which) => (
              <td
                key={which}
                data-testid={`change-${which}`}
                className={`py-2 pr-2 break-words whitespace-pre-line ${which === 'old' ? 'text-slate-500' : 'text-slate-900'}`}
              >
                {change.kind === 'text' ? (
                  change[which] || '—'
                ) : (
                  <ChangedMedia change={change} which={which} />
                )}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
