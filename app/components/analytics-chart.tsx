export interface ChartDay {
  date: string
  views: number
  clicks: number
  bounces: number
}

const WIDTH = 720
const HEIGHT = 240
const PAD = { top: 16, right: 12, bottom: 28, left: 44 }

/**
 * The ad's views and clicks per day as a server-rendered SVG bar chart (no script). It carries a title and a
 * description for screen readers; the same figures are in the table beside it.
 */
export function AnalyticsChart({ days, title }: { days: ChartDay[]; title: string }) {
  const max = Math.max(1, ...days.map((d) => Math.max(d.views, d.clicks)))
  const plotW = WIDTH - PAD.left - PAD.right
  const plotH = HEIGHT - PAD.top - PAD.bottom
  const slot = plotW / Math.max(1, days.length)
  const bar = Math.max(1, slot / 2 - 1)
  const y = (value: number) => PAD.top + plotH - (value / max) * plotH
  const totalViews = days.reduce((sum, d) => sum + d.views, 0)
  const totalClicks = days.reduce((sum, d) => sum + d.clicks, 0)
  const first = days[0]?.date ?? ''
  const last = days.at(-1)?.date ?? ''
  const labelEvery = Math.max(1, Math.ceil(days.length / 8))
  return (
    <svg
      role="img"
      aria-labelledby="chart-title"
      aria-describedby="chart-desc"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="h-auto w-full"
      data-testid="analytics-chart"
    >
      <title id="chart-title">{title}</title>
      <desc id="chart-desc">
        {`Views and clicks per day from ${first} to ${last}: ${totalViews} views and ${totalClicks} clicks in all, at most ${max} in a day.`}
      </desc>
      <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} stroke="#94a3b8" />
      <text x={PAD.left - 6} y={y(max) + 4} textAnchor="end" fontSize="11" fill="#475569">
        {max}
      </text>
      <text x={PAD.left - 6} y={y(0) + 4} textAnchor="end" fontSize="11" fill="#475569">
        0
      </text>
      {days.map((d, i) => {
        const x = PAD.left + i * slot
        return (
          <g key={d.date}>
            <rect x={x} y={y(d.views)} width={bar} height={y(0) - y(d.views)} fill="#2563eb">
              <title>{`${d.date}: ${d.views} views`}</title>
            </rect>
            <rect x={x + bar + 1} y={y(d.clicks)} width={bar} height={y(0) - y(d.clicks)} fill="#f59e0b">
              <title>{`${d.date}: ${d.clicks} clicks`}</title>
            </rect>
            {i % labelEvery === 0 ? (
              <text x={x} y={HEIGHT - 8} fontSize="11" fill="#475569">
                {d.date.slice(5)}
              </text>
            ) : null}
          </g>
        )
      })}
    </svg>
  )
}
