/** A list of moderation decisions: when, who, what and why. */
export interface AuditTableRow {
  id: number
  occurredAt: string
  who: string
  what: string
  reason: string
}

export function ModerationAuditTable({ rows, caption }: { rows: readonly AuditTableRow[]; caption: string }) {
  if (rows.length === 0) return <p className="mt-4 text-slate-600">No moderation decisions yet.</p>
  return (
    <table className="mt-4 w-full text-left text-sm" data-testid="moderation-audit">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-200">
          <th scope="col" className="py-2 pr-3">
            When
          </th>
          <th scope="col" className="py-2 pr-3">
            Who
          </th>
          <th scope="col" className="py-2 pr-3">
            Decision
          </th>
          <th scope="col" className="py-2">
            Reason
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} className="border-b border-slate-100 align-top">
            <td className="py-2 pr-3 whitespace-nowrap">
              <time dateTime={row.occurredAt}>{row.occurredAt.slice(0, 16).replace('T', ' ')} UTC</time>
            </td>
            <td className="py-2 pr-3 break-all">{row.who}</td>
            <td className="py-2 pr-3">{row.what}</td>
            <td className="py-2 wrap-anywhere">{row.reason || '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
