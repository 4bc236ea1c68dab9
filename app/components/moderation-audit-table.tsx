import { Link } from '@remix-run/react'
import { UtcTime } from './utc-time.tsx'

/** A list of moderation decisions: when, who, what and why (and, where asked, the ad each was on). */
export interface AuditTableRow {
  id: number
  occurredAt: string
  who: string
  what: string
  reason: string
  eventID?: number | null
}

export function ModerationAuditTable({
  rows,
  caption,
  linkAds = false,
  emptyText = 'No moderation decisions yet.',
}: {
  rows: readonly AuditTableRow[]
  caption: string
  /** A column linking each decision to its ad's admin page. */
  linkAds?: boolean
  emptyText?: string
}) {
  if (rows.length === 0) return <p className="mt-4 text-slate-600">{emptyText}</p>
  const columns = ['When', 'Who', 'Decision', ...(linkAds ? ['Ad'] : [])]
  return (
    // A phone scrolls the table, not the page.
    <div className="mt-4 overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="moderation-audit">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200">
            {columns.map((column) => (
              <th key={column} scope="col" className="py-2 pr-3">
                {column}
              </th>
            ))}
            <th scope="col" className="py-2">
              Reason
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="border-b border-slate-100 align-top">
              <td className="py-2 pr-3 whitespace-nowrap">
                <UtcTime iso={row.occurredAt} />
              </td>
              <td className="py-2 pr-3 break-all">{row.who}</td>
              <td className="py-2 pr-3">{row.what}</td>
              {linkAds ? (
                <td className="py-2 pr-3 whitespace-nowrap">
                  {row.eventID ? (
                    <Link to={`/admin/events/${row.eventID}`} className="text-brand-700 underline">
                      Ad {row.eventID}
                    </Link>
                  ) : (
                    '—'
                  )}
                </td>
              ) : null}
              <td className="py-2 wrap-anywhere">{row.reason || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
