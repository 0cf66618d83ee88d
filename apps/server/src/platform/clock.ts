/**
 * The one clock of business time: subscription periods, renewals and their retries, upgrade holds,
 * trial days and the erasure sweep read `ctx.clock.now()` (and pass it to SQL as a parameter), so
 * a test moves time instead of sleeping. Infrastructure time (sessions, job leases, rate-limit
 * windows, mail retries) stays on the database's own now().
 */
export interface Clock {
  now(): Date
}

/** The wall clock, shifted by an offset a test (or, outside production, the dev clock call) moves. */
export class MovableClock implements Clock {
  private offsetMs: number
  constructor(offsetSeconds = 0) {
    this.offsetMs = offsetSeconds * 1000
  }
  now(): Date {
    return new Date(Date.now() + this.offsetMs)
  }
  /** moves the clock on (or back, with a negative value) */
  advance(seconds: number): void {
    this.offsetMs += seconds * 1000
  }
  /** sets the clock to `date`; time goes on from there */
  set(date: Date): void {
    this.offsetMs = date.getTime() - Date.now()
  }
  reset(): void {
    this.offsetMs = 0
  }
  get offsetSeconds(): number {
    return this.offsetMs / 1000
  }
}

/** Business time of a context (a bare `{db}` has none: the wall clock). */
export const nowOf = (ctx: object) => ('clock' in ctx ? (ctx as { clock: Clock }).clock.now() : new Date())
