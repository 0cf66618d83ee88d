import { afterEach, describe, expect, it } from 'vitest'
import { Agent, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()
const restore: (() => void)[] = []
afterEach(() => restore.splice(0).forEach((undo) => undo()))

/** Records every statement the app sends from now on: on the main pool, the relaxed pool, or as a transaction. */
function recordStatements() {
  const sent: string[] = []
  type Fn = (...args: unknown[]) => unknown
  const wrap = (obj: object, name: string, label: (args: unknown[]) => string) => {
    const target = obj as Record<string, Fn>
    const orig = target[name]!
    target[name] = (...args: unknown[]) => {
      sent.push(label(args))
      return orig.apply(obj, args)
    }
    restore.push(() => (target[name] = orig))
  }
  const sql = (args: unknown[]) => String(args[0]).replace(/\s+/g, ' ').trim()
  wrap(t.db, 'query', sql)
  wrap(t.db.relaxed, 'query', sql)
  wrap(t.db, 'exec', sql)
  wrap(t.db, 'transaction', () => 'BEGIN … COMMIT')
  return sent
}

async function onlineLicenseWithDevice(fingerprint: string, lastSeen: string) {
  const client = await signedInClient(t)
  const staff = await signedInClient(t)
  await t.db.query('UPDATE clients SET is_staff = true WHERE id = $1', [staff.client.id])
  const res = await staff.agent.post('/api/resource/custom/create/', {
    title: 'Online',
    count: 1,
    client_email: client.email,
    config: {
      product: 'face_online_custom',
      online: true,
      device_bound: false,
      license_expire_delta: 31104000,
      max_version: '3.24',
      license_content: { matcher: 1 },
    },
    custom_tags: {},
  })
  expect(res.statusCode).toBe(200)
  const license = res.json().licenses[0] as { id: number; token: string }
  await t.db.query(`INSERT INTO devices (license_id, kind, fingerprint, last_seen) VALUES ($1, 'online', $2, now() - $3::interval)`, [
    license.id,
    fingerprint,
    lastSeen,
  ])
  return { license }
}

/** the device API limiter's periodic flush of its counts (BatchedLimiter), which no request awaits */
const isLimiterFlush = (sql: string) => /rate_limit/.test(sql)

/**
 * Starts recording once the limiter has flushed what earlier calls counted, so only its flush of the
 * measured call's own counts can follow (and that one is told apart by isLimiterFlush).
 */
async function recordAfterFlush(warmUp: () => Promise<unknown>) {
  const sent = recordStatements()
  await warmUp()
  await expect.poll(() => sent.some(isLimiterFlush), { timeout: 5000 }).toBe(true)
  sent.length = 0
  return sent
}

const lastSeenOf = async (licenseId: number) =>
  (await t.db.query<{ last_seen: Date }>('SELECT last_seen FROM devices WHERE license_id = $1', [licenseId]))[0]!.last_seen

describe('device API hot path', () => {
  it('answers a validation with exactly one database statement; the rate-limit counts follow off the request path', async () => {
    const { license } = await onlineLicenseWithDevice('fp-1', '0 seconds')
    const sdk = new Agent(t.app)
    const call = () => sdk.post('/api/sdk/validate/', { key: license.token, fingerprint: 'fp-1' }, { csrf: false })
    const sent = await recordAfterFlush(call)

    const res = await call()
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ valid: true, code: 'VALID', detail: expect.any(String), expires_at: expect.any(String) })
    const onPath = sent.filter((s) => !isLimiterFlush(s))
    expect(onPath).toHaveLength(1)
    expect(onPath[0]).toMatch(/^SELECT .* FROM ROWS FROM \(json_to_recordset.* FROM licenses l LEFT JOIN devices d/)

    // the call was counted: its hit reaches the shared counters in the limiter's next flush, one statement
    await expect.poll(() => sent.filter(isLimiterFlush).length, { timeout: 5000 }).toBe(1)
    expect(sent).toHaveLength(2)
  })

  it('a key nobody has costs two statements, never more: the license read, then the group-key read', async () => {
    const sdk = new Agent(t.app)
    const call = () => sdk.post('/api/sdk/validate/', { key: 'NO-SUCH-KEY', fingerprint: 'fp-1' }, { csrf: false })
    const sent = await recordAfterFlush(call)
    const res = await call()
    expect(res.json()).toMatchObject({ valid: false, code: 'NOT_FOUND' })
    // a group key is no license's key: it is looked up only once the license keys' read found nothing
    const onPath = sent.filter((s) => !isLimiterFlush(s))
    expect(onPath).toHaveLength(2)
    expect(onPath[1]).toMatch(/FROM license_groups g/)
  })

  it('a stale last seen is written off the request path, in one statement for many devices and many checks', async () => {
    const a = await onlineLicenseWithDevice('fp-a', '2 hours')
    const b = await onlineLicenseWithDevice('fp-b', '2 hours')
    const sdk = new Agent(t.app)
    const sent = await recordAfterFlush(() => sdk.post('/api/sdk/validate/', { key: 'NO-SUCH-KEY', fingerprint: 'fp-1' }, { csrf: false }))

    for (let i = 0; i < 3; i++) {
      expect((await sdk.post('/api/sdk/validate/', { key: a.license.token, fingerprint: 'fp-a' }, { csrf: false })).json().code).toBe('VALID')
    }
    expect((await sdk.post('/api/sdk/validate/', { key: b.license.token, fingerprint: 'fp-b' }, { csrf: false })).json().code).toBe('VALID')

    // four answers, four reads; the buffer writes both devices' last seen in one UPDATE (writes on the
    // request path would be one per device, each awaited by its call)
    await expect.poll(async () => Date.now() - (await lastSeenOf(a.license.id)).getTime(), { timeout: 5000 }).toBeLessThan(60_000)
    expect(Date.now() - (await lastSeenOf(b.license.id)).getTime()).toBeLessThan(60_000)
    const app = sent.filter((s) => !isLimiterFlush(s) && !s.startsWith('SELECT last_seen FROM devices'))
    expect(app.filter((s) => s.startsWith('SELECT'))).toHaveLength(4)
    expect(app.filter((s) => s.startsWith('UPDATE devices'))).toHaveLength(1)
    expect(app).toHaveLength(5)
  })

  it('checks that arrive together share one statement, and each gets the answer for its own key and device (24 checks of six kinds)', async () => {
    const a = await onlineLicenseWithDevice('fp-a', '0 seconds')
    const b = await onlineLicenseWithDevice('fp-b', '0 seconds')
    const c = await onlineLicenseWithDevice('fp-c', '0 seconds')
    // a paused subscription: a row given to the wrong caller shows as a wrong code
    await t.db.query(`UPDATE licenses SET config = jsonb_set(config, '{paused}', 'true') WHERE id = $1`, [c.license.id])
    const sdk = new Agent(t.app)
    const sent = await recordAfterFlush(() => sdk.post('/api/sdk/validate/', { key: 'NO-SUCH-KEY', fingerprint: 'fp-1' }, { csrf: false }))

    const checks = [
      { key: a.license.token, fingerprint: 'fp-a', code: 'VALID' },
      { key: c.license.token, fingerprint: 'fp-c', code: 'PAUSED' },
      { key: b.license.token, fingerprint: 'fp-b', code: 'VALID' },
      // the device of another license, and a device the license never saw
      { key: a.license.token, fingerprint: 'fp-b', code: 'NOT_ACTIVATED' },
      { key: b.license.token, fingerprint: 'fp-new', code: 'NOT_ACTIVATED' },
      { key: 'NO-SUCH-KEY', fingerprint: 'fp-a', code: 'NOT_FOUND' },
    ]
    const calls = Array.from({ length: 4 }, () => checks).flat()
    // the first read is held a moment, as a round trip to a busy database would be: the other calls
    // arrive meanwhile (an embedded PGlite answers before the next call is even parsed)
    const query = t.db.query.bind(t.db)
    let held = false
    t.db.query = (async (sql: string, params?: unknown[]) => {
      if (!held && sql.startsWith('SELECT c.i')) {
        held = true
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      return query(sql, params)
    }) as typeof t.db.query
    // undone before the recording it wraps, so the original comes back last
    restore.unshift(() => (t.db.query = query))
    const answers = await Promise.all(calls.map((c) => sdk.post('/api/sdk/validate/', { key: c.key, fingerprint: c.fingerprint }, { csrf: false })))
    expect(answers.map((r) => r.statusCode)).toEqual(calls.map(() => 200))
    expect(answers.map((r) => r.json().code)).toEqual(calls.map((c) => c.code))
    expect(answers.map((r) => r.json().valid)).toEqual(calls.map((c) => c.code === 'VALID'))

    // 24 answers from two reads: the first goes alone, the rest wait for it and go together
    expect(sent.filter((s) => s.startsWith('SELECT c.i'))).toHaveLength(2)
  })
})
