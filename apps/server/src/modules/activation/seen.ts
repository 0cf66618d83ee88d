import type { Queryable } from '../../db/db.ts'
import type { Logger } from '../../context.ts'
import { recordSeenMany } from './queries.ts'

/** at most this many device ids wait for a flush; past it the buffer flushes at once */
const FLUSH_AT = 5_000
/** what a failing database may leave waiting; beyond it the oldest news is dropped (it is only a time) */
const KEEP_AT_MOST = 100_000

/**
 * Last-seen times of the device API, off the request path. A validation that finds a device's last
 * seen older than a minute adds the device here; every `flushMs` (and at shutdown) the waiting ids
 * are written in one statement, which again only moves times older than a minute. A device checked
 * a thousand times in a second costs one id in a set and at most one row update a minute.
 *
 * What it may lose: on a crash, the last second's last-seen times (a graceful stop flushes them).
 * That is acceptable: last seen is what the customer's license page shows about a device, to the
 * minute, and the device's next check (SDKs check every few minutes) writes it again; no limit,
 * seat or payment depends on it. Nothing here is state another process needs: each process flushes
 * its own devices to the shared database.
 */
export class SeenBuffer {
  private ids = new Set<number>()
  private timer: NodeJS.Timeout | null = null
  private flushing: Promise<void> | null = null
  private failures = 0

  private readonly db: Queryable
  private readonly flushMs: number
  private readonly log: Pick<Logger, 'warn'> | undefined

  constructor(db: Queryable, flushMs = 1000, log?: Pick<Logger, 'warn'>) {
    this.db = db
    this.flushMs = flushMs
    this.log = log
  }

  add(deviceId: number) {
    this.ids.add(deviceId)
    if (this.ids.size >= FLUSH_AT) void this.flush()
    else this.schedule(this.flushMs)
  }

  private schedule(ms: number) {
    this.timer ??= setTimeout(() => {
      this.timer = null
      void this.flush()
    }, ms)
    this.timer.unref()
  }

  /** Writes the waiting ids; on failure keeps them for the next try, with back-off. Never rejects. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.ids.size === 0) return
    const batch = [...this.ids]
    this.ids = new Set()
    this.flushing = (async () => {
      try {
        await recordSeenMany(this.db, batch)
        this.failures = 0
      } catch (err) {
        for (const id of batch) if (this.ids.size < KEEP_AT_MOST) this.ids.add(id)
        this.failures++
        this.log?.warn({ err, failures: this.failures, waiting: this.ids.size }, 'last-seen flush failed; kept for the next try')
        this.schedule(Math.min(30_000, this.flushMs * 2 ** Math.min(this.failures, 5)))
      }
    })()
    try {
      await this.flushing
    } finally {
      this.flushing = null
    }
  }

  async stop() {
    await this.flush()
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }
}
