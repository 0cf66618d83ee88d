import { afterEach, describe, expect, it } from 'vitest'
import { Agent, signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
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

const lastSeenOf = async (licenseId: number) =>
  (await t.db.query<{ last_seen: Date }>('SELECT last_seen FROM devices WHERE license_id = $1', [licenseId]))[0]!.last_seen

describe('device API hot path', () => {
  it('answers a validation with exactly one database statement; the rate-limit counts follow off the request path', async () => {
    const { license } = await onlineLicenseWithDevice('fp-1', '0 seconds')
    const sdk = new Agent(t.app)
    const warm = await sdk.post('/api/sdk/validate/', { key: license.token, fingerprint: 'fp-1' }, { csrf: false })
    expect(warm.json()).toMatchObject({ valid: true, code: 'VALID' })
    await sleep(400) // the limiter's counts of the warm-up call are flushed (every 200 ms)

    const sent = recordStatements()
    const res = await sdk.post('/api/sdk/validate/', { key: license.token, fingerprint: 'fp-1' }, { csrf: false })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ valid: true, code: 'VALID', detail: expect.any(String), expires_at: expect.any(String) })
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatch(/^SELECT .* FROM licenses l LEFT JOIN devices d/)

    // the call was counted: its hit reaches the shared counters in the limiter's next flush
    await sleep(400)
    expect(sent.length).toBe(2)
    expect(sent[1]).toMatch(/rate_limit/)
  })

  it('a refusal costs one statement too', async () => {
    const sdk = new Agent(t.app)
    await sdk.get('/api/health/') // the test agent's first call fetches a CSRF cookie: not part of the measure
    await sleep(400)
    const sent = recordStatements()
    const res = await sdk.post('/api/sdk/validate/', { key: 'NO-SUCH-KEY', fingerprint: 'fp-1' }, { csrf: false })
    expect(res.json()).toMatchObject({ valid: false, code: 'NOT_FOUND' })
    expect(sent).toHaveLength(1)
  })

  it('a stale last seen is written after the answer, by the buffer, in one statement for many devices', async () => {
    const a = await onlineLicenseWithDevice('fp-a', '2 hours')
    const b = await onlineLicenseWithDevice('fp-b', '2 hours')
    const sdk = new Agent(t.app)
    await sdk.get('/api/health/')
    await sleep(400)
    const before = await lastSeenOf(a.license.id)

    const sent = recordStatements()
    for (let i = 0; i < 3; i++) {
      expect((await sdk.post('/api/sdk/validate/', { key: a.license.token, fingerprint: 'fp-a' }, { csrf: false })).json().code).toBe('VALID')
    }
    expect((await sdk.post('/api/sdk/validate/', { key: b.license.token, fingerprint: 'fp-b' }, { csrf: false })).json().code).toBe('VALID')
    // four answers, four reads, no write yet
    expect(sent).toHaveLength(4)
    expect(sent.every((s) => s.startsWith('SELECT'))).toBe(true)
    expect(await lastSeenOf(a.license.id)).toEqual(before)

    // within the buffer's second: one UPDATE for both devices (however often each was checked)
    await expect.poll(() => sent.filter((s) => s.startsWith('UPDATE devices')).length, { timeout: 3000 }).toBe(1)
    await expect.poll(async () => Date.now() - (await lastSeenOf(a.license.id)).getTime(), { timeout: 3000 }).toBeLessThan(60_000)
    expect(Date.now() - (await lastSeenOf(b.license.id)).getTime()).toBeLessThan(60_000)
  })
})
