import { describe, expect, it } from 'vitest'
import { nextQuotaReleaseAt, seatCheck, seatFreedAt } from './seats.ts'

const now = new Date('2026-06-01T00:00:00Z')
const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000)
const inHours = (n: number) => new Date(now.getTime() + n * 3_600_000)

describe('seats', () => {
  it('the quota is 3 releases in any 30 days, the next one when the oldest of the window leaves it', () => {
    expect(nextQuotaReleaseAt([daysAgo(1), daysAgo(2)], now)).toBeNull()
    expect(nextQuotaReleaseAt([daysAgo(31), daysAgo(1), daysAgo(2)], now)).toBeNull()
    expect(nextQuotaReleaseAt([daysAgo(10), daysAgo(1), daysAgo(2)], now)).toEqual(new Date(daysAgo(10).getTime() + 30 * 86_400_000))
  })

  it('a release frees the seat at once within the quota, else when the device file expires', () => {
    expect(seatFreedAt({ recentReleases: [], fileExpiresAt: inHours(24), now })).toEqual({ at: now, quota: true })
    const used = [daysAgo(1), daysAgo(2), daysAgo(3)]
    expect(seatFreedAt({ recentReleases: used, fileExpiresAt: inHours(24), now })).toEqual({ at: inHours(24), quota: false })
    // a device whose file has expired holds nothing: freed at once, the quota untouched
    expect(seatFreedAt({ recentReleases: used, fileExpiresAt: inHours(-1), now })).toEqual({ at: now, quota: false })
    expect(seatFreedAt({ recentReleases: used, fileExpiresAt: null, now })).toEqual({ at: now, quota: false })
  })

  it('bound devices and held seats never outnumber the seats; a refusal says when a seat frees', () => {
    expect(seatCheck({ seats: 1, bound: 0, heldUntil: [], now })).toEqual({ ok: true })
    expect(seatCheck({ seats: 1, bound: 1, heldUntil: [], now })).toEqual({ ok: false, retry_at: null })
    expect(seatCheck({ seats: 1, bound: 0, heldUntil: [inHours(5)], now })).toEqual({ ok: false, retry_at: inHours(5) })
    expect(seatCheck({ seats: 1, bound: 0, heldUntil: [inHours(-1)], now })).toEqual({ ok: true })
    expect(seatCheck({ seats: 2, bound: 0, heldUntil: [inHours(9), inHours(3), inHours(6)], now })).toEqual({ ok: false, retry_at: inHours(6) })
    expect(seatCheck({ seats: 2, bound: 1, heldUntil: [inHours(3)], now })).toEqual({ ok: false, retry_at: inHours(3) })
  })
})
