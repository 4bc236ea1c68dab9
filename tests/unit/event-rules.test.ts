import { describe, expect, test } from 'vitest'
import { DESCRIPTION_MAX, MAX_DISPLAY_DATES, TITLE_MAX, UNSET_DATE } from '#app/constants.ts'
import { eventFormProblems, lastBookableDate } from '#app/models/ads/event-rules.ts'
import { eventInputSchema } from '#app/models/ads/event-schema.ts'
import { addDaysIso } from '#app/utils/time.ts'

const today = '2026-11-23'
const tomorrow = addDaysIso(today, 1)
const lastDate = lastBookableDate(today)

const valid = {
  eventTitle: 'Quiz Night',
  eventDescription: 'Teams of four.',
  eventCategory: ['Community'],
  showAdDates: [tomorrow],
  eventDate: '',
  contactPerson: '',
  contactPhone: '',
  contactEmail: '',
}
type Payload = typeof valid

/** The server's first message per field. */
function serverProblems(payload: Payload) {
  const result = eventInputSchema({ today }).safeParse(payload)
  const problems: Record<string, string> = {}
  if (!result.success)
    for (const issue of result.error.issues) problems[String(issue.path[0])] ??= issue.message
  return problems
}

/** The browser's, from the form's fields as FormData gives them. */
function browserProblems({ eventCategory, showAdDates, ...values }: Payload) {
  return eventFormProblems(values, { eventCategory, showAdDates }, { today })
}

const x = (n: number) => 'x'.repeat(n)
const days = (n: number) => Array.from({ length: n }, (_, i) => addDaysIso(today, i))

const edges: Array<[keyof Payload, Array<string | string[]>]> = [
  ['eventTitle', ['', '   ', 'a', x(TITLE_MAX), x(TITLE_MAX + 1), ` ${x(TITLE_MAX)} `]],
  ['eventDescription', ['', ' ', x(DESCRIPTION_MAX), x(DESCRIPTION_MAX + 1)]],
  ['eventCategory', [[], [''], [' '], ['Arts', ' '], ['Arts', 'Community']]],
  [
    'showAdDates',
    [
      [],
      [today],
      [addDaysIso(today, -1)],
      [lastDate],
      [addDaysIso(lastDate, 1)],
      ['2026-13-01'],
      [' ', tomorrow],
      [` ${tomorrow} `],
      [tomorrow, 'x', addDaysIso(today, -1)],
      days(MAX_DISPLAY_DATES),
      days(MAX_DISPLAY_DATES + 1),
      [...days(MAX_DISPLAY_DATES), tomorrow],
    ],
  ],
  [
    'eventDate',
    [
      '',
      ' ',
      UNSET_DATE,
      today,
      addDaysIso(today, -1),
      lastDate,
      addDaysIso(lastDate, 1),
      'soon',
      '2026-02-30',
    ],
  ],
  ['contactPerson', ['', x(250), x(251), ` ${x(250)} `]],
  ['contactPhone', ['', x(50), x(51)]],
  [
    'contactEmail',
    [
      '',
      'pat@example.com',
      'bad',
      'a@b',
      ' pat@example.com',
      `${x(138)}@example.com`,
      `${x(139)}@example.com`,
      x(151),
    ],
  ],
]

describe('the event form: the browser names the problems the server names', () => {
  test('a valid ad has none on either side', () => {
    expect(serverProblems(valid)).toEqual({})
    expect(browserProblems(valid)).toEqual({})
  })

  for (const [field, values] of edges) {
    test.each(values.map((v) => [JSON.stringify(v).slice(0, 60), v] as const))(
      `${field} = %s`,
      (_, value) => {
        const payload = { ...valid, [field]: value } as Payload
        const server = serverProblems(payload)
        expect(Object.keys(server).filter((f) => f !== field)).toEqual([])
        expect(browserProblems(payload)[field]).toBe(server[field])
      },
    )
  }

  test('an edit after payment leaves its dates to the server', () => {
    const problems = eventFormProblems(
      { eventTitle: 'Quiz', eventDescription: 'Teams', eventDate: 'anything' },
      { eventCategory: ['Arts'], showAdDates: [] },
      { today, paid: true },
    )
    expect(problems).toEqual({})
  })
})
