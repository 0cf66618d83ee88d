/**
 * Coalesces point reads under load. While a statement of this batcher is out, the reads asked for
 * meanwhile wait, and go to the database together, as one statement (`readMany`), when it comes
 * back; each caller gets its own row. A read that finds nothing out goes at once, alone, so a quiet
 * server adds no wait to any call. A busy hot path pays one round trip, one socket write and one
 * statement for many calls (as a database's group commit does), and the process's CPU goes further:
 * the batch grows with the load and the round trip's time.
 *
 * `readMany` answers one entry per key, in the keys' order (null where nothing matched). When it
 * fails, or answers another number of entries, every caller of that batch gets the error, as each
 * would have from its own read. A statement out for longer than `stallMs` (a lost connection not
 * yet noticed) stops holding the others back: the next batch goes beside it.
 */
export class ReadBatch<K, R> {
  private waiting: { key: K; resolve: (row: R | null) => void; reject: (err: unknown) => void }[] = []
  private inFlight = 0
  private readonly maxInFlight: number
  private readonly maxKeys: number
  private readonly stallMs: number

  private readonly readMany: (keys: K[]) => Promise<(R | null)[]>

  constructor(readMany: (keys: K[]) => Promise<(R | null)[]>, opts: { maxInFlight?: number; maxKeys?: number; stallMs?: number } = {}) {
    this.readMany = readMany
    this.maxInFlight = opts.maxInFlight ?? 1
    this.maxKeys = opts.maxKeys ?? 500
    this.stallMs = opts.stallMs ?? 1000
  }

  load(key: K): Promise<R | null> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ key, resolve, reject })
      if (this.inFlight < this.maxInFlight) this.send()
    })
  }

  private send() {
    const batch = this.waiting.splice(0, this.maxKeys)
    if (batch.length === 0) return
    this.inFlight++
    let holding = true
    const release = () => {
      if (!holding) return
      holding = false
      this.inFlight--
      this.send()
    }
    const stalled = setTimeout(release, this.stallMs)
    stalled.unref()
    let answer: Promise<(R | null)[]>
    try {
      answer = this.readMany(batch.map((b) => b.key))
    } catch (err) {
      answer = Promise.reject(err)
    }
    answer
      .then((rows) => {
        // a wrong answer fails its batch: a missing row must not read as "nothing matched"
        if (!Array.isArray(rows) || rows.length !== batch.length) {
          throw new Error(`readMany answered ${Array.isArray(rows) ? rows.length : typeof rows} entries for ${batch.length} keys`)
        }
        for (let i = 0; i < batch.length; i++) batch[i]!.resolve(rows[i] ?? null)
      })
      // a failed statement or a wrong answer reaches every caller of the batch (rejecting one already
      // answered does nothing)
      .catch((err: unknown) => {
        for (const b of batch) b.reject(err)
      })
      .finally(() => {
        clearTimeout(stalled)
        release()
      })
  }
}
