import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { Db } from '../db/db.ts'
import { fail } from './errors.ts'

/** One labelled value of a figure read from the database at scrape time. */
export interface Sample {
  labels: Record<string, string>
  value: number
}

/** A figure read from the database when Prometheus scrapes: its name, help, label names and how to read it. */
export interface DbFigure {
  name: string
  help: string
  labelNames: readonly string[]
  read: (db: Db) => Promise<Sample[]>
  /**
   * For a figure that counts a whole table: its reading is kept this long. A scrape within it answers
   * the kept reading; the first scrape after it answers the kept reading too and reads again behind it,
   * so a scrape never waits on the scan and the table is scanned at most once per period.
   */
  maxAgeMs?: number
}

/** How a figure is read at a scrape: straight from the database, or kept for its `maxAgeMs`. */
function reader(figure: DbFigure, db: Db, now: () => number): () => Promise<Sample[]> {
  const maxAge = figure.maxAgeMs
  if (!maxAge) return () => figure.read(db)
  let kept: { at: number; samples: Sample[] } | null = null
  let reading: Promise<Sample[]> | null = null
  const read = () =>
    (reading ??= figure
      .read(db)
      .then(
        (samples) => {
          kept = { at: now(), samples }
          return samples
        },
        (err: unknown) => {
          // a failed reading is not answered again: the next scrape reads afresh, or leaves the figure out
          kept = null
          throw err
        },
      )
      .finally(() => {
        reading = null
      }))
  return async () => {
    if (!kept) return read()
    if (now() - kept.at >= maxAge) read().catch(() => undefined)
    return kept.samples
  }
}

/**
 * The process's Prometheus metrics (prom-client), in a registry of its own: the process's defaults
 * (CPU, memory, event loop), every answer counted and timed by route and status, the database pool,
 * and the figures the modules read from the database at scrape time (queues, payments, renewals, mail),
 * which are the same on every instance because they come from the shared database.
 */
export function createMetrics(db: Db, figures: readonly DbFigure[], opts: { now?: () => number } = {}) {
  const now = opts.now ?? (() => performance.now())
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'portal_' })
  const requests = new Counter({
    name: 'portal_http_requests_total',
    help: 'Answers sent, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time to answer, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  new Gauge({
    name: 'portal_db_pool_connections',
    help: "The database pool's connections: total open, idle, and requests waiting for one",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { connections } = db.stats()
      for (const [state, n] of Object.entries(connections)) this.set({ state }, n)
    },
  })
  new Counter({
    name: 'portal_db_connection_errors_total',
    help: 'Statements and idle connections lost because the database could not be reached',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(db.stats().connectionErrors)
    },
  })
  new Counter({
    name: 'portal_metrics_scrape_errors_total',
    help: 'Figures that could not be read from the database at a scrape (the figure is left out of that scrape)',
    registers: [registry],
  })
  const scrapeErrors = registry.getSingleMetric('portal_metrics_scrape_errors_total') as Counter
  for (const figure of figures) {
    const read = reader(figure, db, now)
    new Gauge({
      name: figure.name,
      help: figure.help,
      labelNames: figure.labelNames,
      registers: [registry],
      async collect() {
        this.reset()
        try {
          for (const s of await read()) this.set(s.labels, s.value)
        } catch {
          // the database is away: the scrape still answers, with the process's own figures
          scrapeErrors.inc()
        }
      },
    })
  }
  return {
    registry,
    observe(method: string, route: string, status: number, seconds: number) {
      const labels = { method, route, status: String(status) }
      requests.inc(labels)
      duration.observe(labels, seconds)
    },
  }
}

export type Metrics = ReturnType<typeof createMetrics>

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Counts every answer, and serves `GET /metrics` to a scraper presenting `Authorization: Bearer
 * METRICS_TOKEN`; without a token configured the path is not served at all (a 404 like any unknown path).
 */
export function installMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined) {
  app.addHook('onResponse', async (req, reply) => {
    // the route's pattern, never the raw path: ids would make a series per license
    const route = req.routeOptions.url ?? 'unmatched'
    metrics.observe(req.method, route, reply.statusCode, reply.elapsedTime / 1000)
  })
  if (!token) return
  app.get('/metrics', { config: { auth: 'public' }, schema: { hide: true } }, async (req, reply) => {
    const header = req.headers.authorization ?? ''
    if (!header.startsWith('Bearer ') || !sameToken(header.slice(7), token)) {
      reply.header('www-authenticate', 'Bearer')
      return fail('unauthorized', 'A valid metrics token is required.')
    }
    return reply
      .header('content-type', metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(await metrics.registry.metrics())
  })
}
