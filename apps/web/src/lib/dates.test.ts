import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatDay, formatDayTime } from './dates.ts'

const intlDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit', year: 'numeric' })
const intlDayTime = new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit' })
// some ICU versions put a narrow no-break space before AM/PM; the portal writes a plain one
const plain = (s: string) => s.replace(/\u202f/g, ' ')

describe('formatDay and formatDayTime', () => {
  it('write MMM DD, YYYY and a 12-hour time of day in local time', () => {
    expect(formatDay(new Date(2026, 10, 22, 23, 59))).toBe('Nov 22, 2026')
    expect(formatDay(new Date(2027, 0, 5))).toBe('Jan 05, 2027')
    expect(formatDayTime(new Date(2026, 10, 25, 20, 45))).toBe('Nov 25, 2026, 8:45 PM')
    expect(formatDayTime(new Date(2026, 0, 5, 0, 5))).toBe('Jan 05, 2026, 12:05 AM')
    expect(formatDayTime(new Date(2026, 5, 30, 12, 0))).toBe('Jun 30, 2026, 12:00 PM')
  })

  it('take what the API sends: ISO strings and epoch milliseconds', () => {
    const iso = '2026-12-26T10:30:00.000Z'
    expect(formatDay(iso)).toBe(plain(intlDay.format(new Date(iso))))
    expect(formatDayTime(Date.parse(iso))).toBe(plain(intlDayTime.format(new Date(iso))))
  })

  it("agree with Intl's en-US output for any moment from 1970 to 2200", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) }), (ms) => {
        expect(formatDay(ms)).toBe(plain(intlDay.format(ms)))
        expect(formatDayTime(ms)).toBe(plain(intlDayTime.format(ms)))
      }),
      { numRuns: 2000 },
    )
  })

  it('write "Invalid Date" for what is no date, where Intl would throw', () => {
    expect(formatDay('not a date')).toBe('Invalid Date')
    expect(formatDayTime(Number.NaN)).toBe('Invalid Date')
  })
})
