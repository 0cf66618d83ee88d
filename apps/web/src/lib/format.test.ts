import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { formatDay, formatDayTime } from './format.ts'

const intl = () => ({
  day: new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit', year: 'numeric' }),
  dayTime: new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit' }),
})
const { day: intlDay, dayTime: intlDayTime } = intl()
// some ICU versions put a narrow no-break space before AM/PM; the portal writes a plain one
const plain = (s: string) => s.replace(/\u202f/g, ' ')
const originalTz = process.env.TZ
afterAll(() => {
  if (originalTz === undefined) delete process.env.TZ
  else process.env.TZ = originalTz
})

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

  // Node applies a TZ set at run time to Date and to Intl formatters made after it: the zones cover
  // daylight saving (New York), a half-hour offset (Kolkata) and a half-hour shift (Lord Howe)
  it.each(['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'])(
    "agree with Intl's en-US output for any moment from 1970 to 2200, in %s",
    (zone) => {
      process.env.TZ = zone
      const { day, dayTime } = intl()
      // ICU may name the zone by an alias (Asia/Calcutta): what matters is that it is not the old one
      if (zone !== 'UTC') expect(day.resolvedOptions().timeZone).not.toBe('UTC')
      fc.assert(
        fc.property(fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) }), (ms) => {
          expect(formatDay(ms)).toBe(plain(day.format(ms)))
          expect(formatDayTime(ms)).toBe(plain(dayTime.format(ms)))
        }),
        { numRuns: 1000 },
      )
      // the zone took: the same instant is another local time in New York than in UTC
      if (zone === 'America/New_York') expect(formatDayTime(Date.UTC(2026, 10, 25, 3, 30))).toBe('Nov 24, 2026, 10:30 PM')
    },
  )

  it('write "Invalid Date" for what is no date, where Intl would throw', () => {
    expect(formatDay('not a date')).toBe('Invalid Date')
    expect(formatDayTime(Number.NaN)).toBe('Invalid Date')
  })
})
