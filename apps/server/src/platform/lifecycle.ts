import type { FastifyInstance } from 'fastify'
import type { Db } from '../db/db.ts'

/**
 * Whether this process is on its way out. While it drains, `GET /api/health/` answers 503 so a load
 * balancer sends new traffic elsewhere, and every answer carries `Connection: close` so clients open
 * their next request on another instance instead of reusing this one's connection.
 */
export interface Lifecycle {
  readonly draining: boolean
  drain(): void
}

export function createLifecycle(): Lifecycle {
  let draining = false
  return {
    get draining() {
      return draining
    },
    drain() {
      draining = true
    },
  }
}

export interface StopOptions {
  /** how long the health check answers 503 before the listener closes */
  delaySeconds: number
  log: { info(obj: object, msg: string): void }
  sleep?: (ms: number) => Promise<void>
}

/**
 * A graceful stop (SIGTERM): drain, give the load balancer `delaySeconds` to notice, then close the
 * app, which stops accepting connections, lets the requests in flight finish and, in its onClose
 * hooks, stops the job loop after the job it is running; the database pool closes last. The caller
 * bounds the whole with its own deadline.
 */
export async function stopGracefully(app: FastifyInstance, db: Db, opts: StopOptions): Promise<void> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  app.lifecycle.drain()
  opts.log.info({ delaySeconds: opts.delaySeconds }, 'draining: the health check answers 503')
  if (opts.delaySeconds > 0) await sleep(opts.delaySeconds * 1000)
  await app.close()
  await db.close()
  opts.log.info({}, 'stopped: requests and jobs in flight finished')
}

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle
  }
}
