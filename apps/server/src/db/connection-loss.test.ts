import { createServer, type AddressInfo } from 'node:net'
import pg from 'pg'
import type { FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../app.ts'
import { loadSecrets, masterKeyOf } from '../platform/secrets.ts'
import { dbKeyring } from '../platform/signing.ts'
import { Agent, DB_KIND, expectError, signedInClient, testConfig, useTestApp, workerDatabaseUrl } from '../test/harness.ts'
import { isConnectionError, postgresDb } from './db.ts'

const t = useTestApp()
const UNAVAILABLE = 'd3fc7de6'

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe('database out of reach', () => {
  it('health answers 503 "database":"down", requests that need the database a coded 503, and the process stays up', async () => {
    const db = postgresDb(`postgres://postgres@127.0.0.1:${await closedPort()}/portal`)
    // a start reads the shared keys from its database first (so a real one waits for it); here they
    // come from the worker's, and the app serves on the database out of reach
    const config = testConfig()
    const shared = { secrets: await loadSecrets(t.db, config), keyring: await dbKeyring({ db: t.db, masterKey: masterKeyOf(config) }) }
    const app = await buildApp({ config, db, shared })
    await app.ready()
    try {
      const a = new Agent(app)
      const health = await a.get('/api/health/')
      expect(health.statusCode).toBe(503)
      expect(health.json()).toEqual({ status: 'unavailable', database: 'down' })
      // a session cookie makes no difference to the health check
      a.cookies.set('sessionid', 'some-session')
      expect((await a.get('/api/health/')).json()).toEqual({ status: 'unavailable', database: 'down' })
      expectError(await a.get('/api/client/'), 503, UNAVAILABLE)
      a.cookies.delete('sessionid')
      expectError(await a.post('/api/client/signin/', { username: 'x@example.com', password: 'Whatever-1' }), 503, UNAVAILABLE)
      const sdk = await a.post('/api/sdk/validate/', { key: 'ABCD-EFGH-JKLM-NPQR', fingerprint: 'fp' }, { csrf: false })
      expectError(sdk, 503, UNAVAILABLE)
    } finally {
      await app.close()
      await db.close()
    }
  })

  it('tells connection faults from statement faults', () => {
    for (const err of [
      { code: 'ECONNREFUSED' },
      { code: '57P01' },
      { code: '08006' },
      new Error('Connection terminated unexpectedly'),
      Object.assign(new AggregateError([{ code: 'ECONNREFUSED' }]), { code: undefined }),
    ]) {
      expect(isConnectionError(err), JSON.stringify(err)).toBe(true)
    }
    for (const err of [{ code: '22021' }, { code: '23505' }, new Error('syntax error'), null, 'x']) expect(isConnectionError(err)).toBe(false)
  })
})

describe.runIf(DB_KIND === 'postgres')('PostgreSQL terminates the portal’s connections', () => {
  /** Kills every backend of the worker database but the admin's own, as a restart or failover does. */
  async function terminateAll(): Promise<number> {
    const url = new URL(workerDatabaseUrl()!)
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
    await admin.connect()
    try {
      const rows = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [
        url.pathname.slice(1),
      ])
      return rows.rowCount ?? 0
    } finally {
      await admin.end()
    }
  }

  async function sleeping(app: FastifyInstance): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const rows = await app.ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND pid <> pg_backend_pid()`,
      )
      if (rows[0]!.n >= 2) return
      await new Promise((r) => setTimeout(r, 20))
    }
    throw new Error('the slow requests never reached the database')
  }

  it('in the middle of requests: the server stays up, answers 503 meanwhile and serves again within seconds', async () => {
    const db = postgresDb(workerDatabaseUrl()!, 6)
    const app = await buildApp({ config: testConfig(), db })
    // two requests that are surely inside the database when it drops them: a plain query and a transaction
    app.get('/test/slow-query', async () => db.query('SELECT pg_sleep(5)'))
    app.get('/test/slow-transaction', async () => db.transaction((tx) => tx.query('SELECT pg_sleep(5)')))
    await app.ready()
    try {
      const { agent } = await signedInClient({ app, db: t.db })
      expect((await agent.get('/api/client/')).statusCode).toBe(200)
      // SDK counters take the relaxed pool: it has connections to lose too
      await agent.post('/api/sdk/validate/', { key: 'ABCD-EFGH-JKLM-NPQR', fingerprint: 'fp' }, { csrf: false })

      const slowQuery = agent.get('/test/slow-query')
      const slowTx = agent.get('/test/slow-transaction')
      const traffic = Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? agent.get('/api/client/') : agent.get('/api/health/'))))
      await sleeping(app)
      expect(await terminateAll()).toBeGreaterThanOrEqual(2)

      expectError(await slowQuery, 503, UNAVAILABLE)
      expectError(await slowTx, 503, UNAVAILABLE)
      for (const res of await traffic) {
        expect([200, 503], res.body).toContain(res.statusCode)
        if (res.statusCode === 503 && res.json().error_code) expect(res.json().error_code).toBe(UNAVAILABLE)
      }

      // kill them again while idle: the pools' idle connections drop without a listener waiting
      await terminateAll()
      const started = Date.now()
      for (;;) {
        const [profile, health] = await Promise.all([agent.get('/api/client/'), agent.get('/api/health/')])
        if (profile.statusCode === 200 && health.statusCode === 200) break
        expect(Date.now() - started, `${profile.statusCode} ${profile.body}`).toBeLessThan(5000)
        await new Promise((r) => setTimeout(r, 100))
      }
      expect(Date.now() - started).toBeLessThan(5000)
      const sdk = await agent.post('/api/sdk/validate/', { key: 'ABCD-EFGH-JKLM-NPQR', fingerprint: 'fp' }, { csrf: false })
      expect(sdk.statusCode).toBe(200)
    } finally {
      await app.close()
      await db.close()
    }
  })

  it('the shared app keeps serving after its idle connections are killed', async () => {
    const { agent } = await signedInClient(t)
    expect((await agent.get('/api/client/')).statusCode).toBe(200)
    await terminateAll()
    await new Promise((r) => setTimeout(r, 200))
    expect((await agent.get('/api/client/')).statusCode).toBe(200)
    expect((await agent.get('/api/health/')).json()).toEqual({ status: 'ok', database: 'postgres' })
  })
})
