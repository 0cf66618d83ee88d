import { describe, expect, it } from 'vitest'
import { ERRORS, TRANSACTION_STATUS, TRANSACTION_TYPE } from '@portal/domain'
import { buildApp } from '../app.ts'
import { createMetrics, type DbFigure } from './metrics.ts'
import { signedInClient, testConfig, useTestApp } from '../test/harness.ts'

const TOKEN = 'metrics-token-for-the-tests'
const t = useTestApp({ METRICS_TOKEN: TOKEN })

/** One sample's value from Prometheus' text format, by its name and labels as written there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('GET /metrics', () => {
  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(res.headers['cache-control']).toBe('no-store')
    return res.body
  }

  it('answers only a scraper with the token: a coded 401 otherwise', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} })
      expect(res.statusCode).toBe(401)
      expect(res.json().error_code).toBe(ERRORS.unauthorized.code)
      expect(res.headers['www-authenticate']).toBe('Bearer')
    }
  })

  it('counts and times answers by route pattern and status, never by raw path', async () => {
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ method: 'GET', url: '/api/health/' })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: '/api/license/123/' })).statusCode).toBe(401)
    const text = await scrape()
    expect(sample(text, 'portal_http_requests_total{method="GET",route="/api/health/",status="200"}')).toBeGreaterThanOrEqual(3)
    expect(sample(text, 'portal_http_requests_total{method="GET",route="/api/license/:id/",status="401"}')).toBeGreaterThanOrEqual(1)
    expect(text).not.toContain('route="/api/license/123/"')
    expect(sample(text, 'portal_http_request_duration_seconds_count{method="GET",route="/api/health/",status="200"}')).toBeGreaterThanOrEqual(3)
    expect(text).toMatch(/^portal_db_pool_connections\{state="idle"\} \d+$/m)
    // the worker's database is shared with tests that cut connections on purpose: a count, whatever it is
    expect(sample(text, 'portal_db_connection_errors_total')).toEqual(expect.any(Number))
    expect(text).toMatch(/^portal_process_resident_memory_bytes \d+/m)
  })

  it('reads the shared figures from the database at scrape time: queue, failures, outbox, payments, renewals', async () => {
    const { client } = await signedInClient(t)
    await t.db.query(`INSERT INTO jobs (name, run_at) VALUES ('metrics.test', now() - interval '90 seconds'), ('metrics.test', now() + interval '1 hour')`)
    await t.db.query(`INSERT INTO jobs (name, status, finished_at, last_error) VALUES ('metrics.broken', 'failed', now(), 'boom')`)
    await t.db.query(
      `INSERT INTO mail_outbox (to_address, subject, text_body, html_body, created_at) VALUES ('a@example.com', 'Hello', 'Hi', '<p>Hi</p>', now() - interval '2 minutes')`,
    )
    for (const status of [TRANSACTION_STATUS.declined, TRANSACTION_STATUS.declined, TRANSACTION_STATUS.pending]) {
      await t.db.query(
        `INSERT INTO transactions (client_id, type, status, amount_cents, kind, description, payment_source, provider)
         VALUES ($1, $2, $3, 5000, 'top_up', 'Balance top-up', 'stripe', 'sandbox')`,
        [client.id, TRANSACTION_TYPE.credit, status],
      )
    }
    const text = await scrape()
    expect(sample(text, 'portal_jobs_waiting{name="metrics.test"}')).toBe(2)
    expect(sample(text, 'portal_jobs_due{name="metrics.test"}')).toBe(1)
    expect(sample(text, 'portal_jobs_oldest_due_age_seconds')).toBeGreaterThanOrEqual(89)
    expect(sample(text, 'portal_jobs_failed_last_24h{name="metrics.broken"}')).toBe(1)
    expect(sample(text, 'portal_mail_outbox_waiting')).toBe(1)
    expect(sample(text, 'portal_mail_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(119)
    expect(sample(text, 'portal_payments_last_24h{provider="sandbox",kind="top_up",status="declined"}')).toBe(2)
    expect(sample(text, 'portal_payments_last_24h{provider="sandbox",kind="top_up",status="pending"}')).toBe(1)
    expect(sample(text, 'portal_renewals_due')).toBe(0)
    expect(sample(text, 'portal_metrics_scrape_errors_total')).toBe(0)
  })
})

describe('a figure that counts a whole table', () => {
  it('is read at most once per its maxAgeMs: scrapes in between, and the first after, answer the kept reading', async () => {
    let clock = 0
    let reads = 0
    let failing = false
    const figure: DbFigure = {
      name: 'portal_test_rows',
      help: 'rows',
      labelNames: [],
      maxAgeMs: 60_000,
      read: async () => {
        reads++
        if (failing) throw new Error('the database is away')
        return [{ labels: {}, value: reads }]
      },
    }
    const { registry } = createMetrics(t.db, [figure], { now: () => clock })
    const scrape = async () => sample(await registry.metrics(), 'portal_test_rows')
    const errors = async () => sample(await registry.metrics(), 'portal_metrics_scrape_errors_total')

    // the first scrape waits for its reading; the next ones within the minute answer it unread
    expect(await scrape()).toBe(1)
    clock = 59_999
    expect(await Promise.all([scrape(), scrape(), scrape()])).toEqual([1, 1, 1])
    expect(reads).toBe(1)
    // past the minute: the scrape still answers the kept reading, and one new reading starts behind it
    clock = 60_000
    expect(await Promise.all([scrape(), scrape()])).toEqual([1, 1])
    await expect.poll(scrape).toBe(2)
    expect(reads).toBe(2)
    // a failed reading is not kept: the scrape after it reads afresh, and counts the failure if it fails again
    clock = 120_000
    failing = true
    expect(await scrape()).toBe(2)
    await expect.poll(errors).toBeGreaterThanOrEqual(1)
    const readsSoFar = reads
    failing = false
    expect(await scrape()).toBe(readsSoFar + 1)
  })
})

describe('without METRICS_TOKEN', () => {
  it('/metrics is not served', async () => {
    const app = await buildApp({ config: testConfig(), db: t.db, runJobs: false })
    try {
      expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404)
    } finally {
      await app.close()
    }
  })
})
