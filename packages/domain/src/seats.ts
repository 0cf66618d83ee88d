import { DAY_SECONDS } from './catalogue.ts'
import { DEVICE_RELEASES_PER_30_DAYS } from './license-file.ts'

/**
 * Seats of a license (spec section 9, "a seat freed on one machine is never a way to run on more
 * machines than the license allows"): the devices that hold a file not yet expired never outnumber
 * the seats. A release frees a seat at once only within the release quota (3 in any 30 days, the
 * customer's and the SDK's together); past it, a released device keeps its seat until its last file
 * expires. The portal's release, the SDK's deactivation and every activation read these rules.
 */

export const RELEASE_WINDOW_SECONDS = 30 * DAY_SECONDS

/** When the next release within the quota is possible: null when one is possible at `now`. */
export function nextQuotaReleaseAt(recent: readonly Date[], now: Date): Date | null {
  const windowMs = RELEASE_WINDOW_SECONDS * 1000
  const inWindow = recent
    .map((d) => d.getTime())
    .filter((t) => t > now.getTime() - windowMs && t <= now.getTime())
    .sort((a, b) => a - b)
  if (inWindow.length < DEVICE_RELEASES_PER_30_DAYS) return null
  return new Date(inWindow[inWindow.length - DEVICE_RELEASES_PER_30_DAYS]! + windowMs)
}

/**
 * When the seat of a device released at `now` frees: at once (and the release counts against the
 * quota) while the quota allows; at once without counting when its last file has already expired;
 * else when that file expires.
 */
export function seatFreedAt(p: { recentReleases: readonly Date[]; fileExpiresAt: Date | null; now: Date }): { at: Date; quota: boolean } {
  if (p.fileExpiresAt === null || p.fileExpiresAt.getTime() <= p.now.getTime()) return { at: p.now, quota: false }
  if (nextQuotaReleaseAt(p.recentReleases, p.now) === null) return { at: p.now, quota: true }
  return { at: p.fileExpiresAt, quota: false }
}

export type SeatCheck = { ok: true } | { ok: false; retry_at: Date | null }

/**
 * Whether one more device may bind: the bound devices and the released ones whose seat is still held
 * (`heldUntil`, when each frees) leave a seat. Refused, `retry_at` is when the first held seat frees;
 * null when every seat is held by a bound device (only a release frees one).
 */
export function seatCheck(p: { seats: number; bound: number; heldUntil: readonly Date[]; now: Date }): SeatCheck {
  const held = p.heldUntil
    .map((d) => d.getTime())
    .filter((t) => t > p.now.getTime())
    .sort((a, b) => a - b)
  const taken = p.bound + held.length
  if (taken < p.seats) return { ok: true }
  // the seats above the count free in order; the one that lets a device in is the (taken - seats + 1)th
  const index = taken - p.seats
  return { ok: false, retry_at: index < held.length ? new Date(held[index]!) : null }
}
