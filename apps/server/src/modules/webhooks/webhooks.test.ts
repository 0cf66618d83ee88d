import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_TOLERANCE_SECONDS, parseWebhookSignature } from '@portal/domain'
import { runCommand } from '../../cli/commands.ts'
import { Agent, count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { sendExpiryWarnings } from '../subscriptions/renewal.ts'
import { deliverWebhook, emitWebhookEvent } from './service.ts'

const t = useTestApp()

/** A receiver on this machine: answers each POST with the next status of `answers` (then 200), and keeps what came. */
const received: { headers: IncomingHttpHeaders; body: string }[] = []
let answers: number[] = []
const receiver = createServer((req, res) => {
  let body = ''
  req.setEncoding('utf8')
  req.on('data', (chunk: string) => (body += chunk))
  req.on('end', () => {
    received.push({ headers: req.headers, body })
    res.statusCode = answers.shift() ?? 200
    res.end('ok')
  })
})
let receiverUrl = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
})
afterAll(async () => new Promise<void>((resolve) => receiver.close(() => resolve())))
beforeEach(() => {
  received.length = 0
  answers = []
})

/** What a receiver does with a delivery: the documented check of Portal-Signature (docs/api.md). */
function verify(secret: string, header: string | undefined, body: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const sig = header ? parseWebhookSignature(header) : null
  if (!sig || Math.abs(nowSeconds - sig.t) > WEBHOOK_TOLERANCE_SECONDS) return false
  const expected = Buffer.from(createHmac('sha256', secret).update(`${sig.t}.${body}`).digest('hex'))
  return sig.v1.some((v) => timingSafeEqual(Buffer.from(v), expected))
}

type Signed = Awaited<ReturnType<typeof signedInClient>>

async function endpoint(c: Signed, events: string[], url = receiverUrl) {
  const res = await c.agent.post('/api/account/webhooks/', { url, events })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().endpoint as { id: number; secret: string; url: string }
}

/** A client with an online license key (a granted Nuitrack subscription group, one key generated). */
async function withKey() {
  const c = await signedInClient(t)
  expect((await runCommand(t.db, ['licenses:grant', c.email, 'nuitrack_subscribe', '3', '--os-type', '1'])).code).toBe(0)
  const group = (await c.agent.get('/api/group/')).json().groups.at(-1) as { id: number }
  const license = (await c.agent.post(`/api/group/${group.id}/new-license/`, {})).json() as { id: number; token: string }
  return { ...c, license }
}

const sdk = (path: string, body: unknown) => new Agent(t.app).post(`/api/sdk/${path}/`, body, { csrf: false })
const deliveries = (c: Signed) => c.agent.get('/api/account/webhooks/deliveries/').then((r) => r.json().deliveries as Record<string, unknown>[])
const runDue = async () => {
  // a retry waits for its back-off: moved to now instead of waiting
  await t.db.query(`UPDATE jobs SET run_at = now() WHERE name = 'webhooks.deliver' AND status = 'pending'`)
  await t.app.ctx.jobs.tick()
}

describe('webhook endpoints', () => {
  it('are registered with a URL and events, each with its own secret; another account cannot remove one', async () => {
    const c = await signedInClient(t)
    const a = await endpoint(c, ['device.activated', 'device.released'])
    const b = await endpoint(c, ['payment.failed'])
    expect(a.secret).toMatch(/^whsec_/)
    expect(a.secret).not.toBe(b.secret)
    expect((await c.agent.get('/api/account/webhooks/')).json().endpoints).toHaveLength(2)
    expectError(await c.agent.post('/api/account/webhooks/', { url: 'ftp://example.com/x', events: ['device.activated'] }), 400, '6a38afc1', 'url')
    expectError(await c.agent.post('/api/account/webhooks/', { url: 'https://example.com/x', events: [] }), 400, '6a38afc1', 'events')
    expectError(await c.agent.post('/api/account/webhooks/', { url: 'https://example.com/x', events: ['license.created'] }), 400, '6a38afc1')
    const other = await signedInClient(t)
    expectError(await other.agent.post(`/api/account/webhooks/${a.id}/delete/`, {}), 404, '63f560db')
    expect((await c.agent.post(`/api/account/webhooks/${a.id}/delete/`, {})).statusCode).toBe(200)
    expect((await c.agent.get('/api/account/webhooks/')).json().endpoints.map((e: { id: number }) => e.id)).toEqual([b.id])
  })

  it('at most 10 per account, however many registrations arrive at once', async () => {
    const c = await signedInClient(t)
    const results = await Promise.all(
      Array.from({ length: 14 }, (_, i) => c.agent.post('/api/account/webhooks/', { url: `https://example.com/h${i}`, events: ['payment.failed'] })),
    )
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(10)
    for (const r of results.filter((r) => r.statusCode !== 201)) expectError(r, 400, '4f69090b')
    expect(await count(t.db, 'webhook_endpoints WHERE client_id = $1', [c.client.id])).toBe(10)
  })
})

describe('webhook deliveries', () => {
  it('a device activated and released on the device API reach the endpoints subscribed, signed so a receiver can verify them', async () => {
    const c = await withKey()
    const both = await endpoint(c, ['device.activated', 'device.released'])
    await endpoint(c, ['payment.failed'])
    expect((await sdk('activate', { key: c.license.token, fingerprint: 'kiosk-7', name: 'Lobby' })).statusCode).toBe(200)
    expect((await sdk('deactivate', { key: c.license.token, fingerprint: 'kiosk-7' })).statusCode).toBe(200)
    expect(await count(t.db, 'webhook_deliveries')).toBe(2)
    await t.app.ctx.jobs.tick()
    expect(received).toHaveLength(2)
    const events = received.map((r) => JSON.parse(r.body) as { id: string; type: string; data: Record<string, unknown> })
    expect(events.map((e) => e.type).sort()).toEqual(['device.activated', 'device.released'])
    expect(events.find((e) => e.type === 'device.activated')!.data).toMatchObject({ license_id: c.license.id, channel: 'sdk', name: 'Lobby' })
    for (const r of received) {
      expect(verify(both.secret, r.headers['portal-signature'] as string, r.body)).toBe(true)
      // a changed body, another secret or a stale timestamp does not verify
      expect(verify(both.secret, r.headers['portal-signature'] as string, r.body.replace('kiosk', 'KIOSK') + ' ')).toBe(false)
      expect(verify('whsec_other', r.headers['portal-signature'] as string, r.body)).toBe(false)
      expect(verify(both.secret, r.headers['portal-signature'] as string, r.body, Math.floor(Date.now() / 1000) + WEBHOOK_TOLERANCE_SECONDS + 5)).toBe(false)
    }
    expect((await deliveries(c)).map((d) => d.status)).toEqual(['delivered', 'delivered'])
  })

  it('is written in the transaction of the change: a change rolled back leaves no delivery and no job', async () => {
    const c = await signedInClient(t)
    await endpoint(c, ['license.suspended'])
    await expect(
      t.db.transaction(async (tx) => {
        await emitWebhookEvent(t.app.ctx, tx, c.client.id, 'license.suspended', { license_id: 1 })
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    expect(await count(t.db, 'webhook_deliveries')).toBe(0)
    expect(await count(t.db, `jobs WHERE name = 'webhooks.deliver'`)).toBe(0)
    // nobody subscribed: nothing written
    await t.db.transaction((tx) => emitWebhookEvent(t.app.ctx, tx, c.client.id, 'payment.failed', {}))
    expect(await count(t.db, 'webhook_deliveries')).toBe(0)
  })

  it('a receiver that fails is tried again with back-off, the same event each time, until it answers 2xx', async () => {
    const c = await withKey()
    const hook = await endpoint(c, ['device.activated'])
    answers = [500, 503]
    await sdk('activate', { key: c.license.token, fingerprint: 'kiosk-1' })
    await t.app.ctx.jobs.tick()
    expect(await deliveries(c)).toEqual([expect.objectContaining({ event: 'device.activated', status: 'pending', attempts: 1, last_response_code: 500 })])
    // the queue's back-off: not due again at once
    expect(await count(t.db, `jobs WHERE name = 'webhooks.deliver' AND status = 'pending' AND run_at > now()`)).toBe(1)
    await t.app.ctx.jobs.tick()
    expect(received).toHaveLength(1)
    await runDue()
    expect((await deliveries(c))[0]).toMatchObject({ status: 'pending', attempts: 2, last_response_code: 503 })
    await runDue()
    expect((await deliveries(c))[0]).toMatchObject({ status: 'delivered', attempts: 3, last_response_code: 200, url: hook.url })
    expect(new Set(received.map((r) => r.body)).size).toBe(1)
    expect(received.every((r) => verify(hook.secret, r.headers['portal-signature'] as string, r.body))).toBe(true)
    await runDue()
    expect(received).toHaveLength(3)
  })

  it('the last attempt marks the delivery failed; an endpoint removed meanwhile is sent nothing', async () => {
    const c = await withKey()
    const hook = await endpoint(c, ['device.activated', 'device.released'])
    await sdk('activate', { key: c.license.token, fingerprint: 'kiosk-1' })
    const [first] = await t.db.query<{ id: number }>('SELECT id FROM webhook_deliveries')
    answers = [410]
    await expect(deliverWebhook(t.app.ctx, first!.id, WEBHOOK_MAX_ATTEMPTS)).rejects.toThrow('answered 410')
    expect((await deliveries(c))[0]).toMatchObject({ status: 'failed', attempts: 1, last_response_code: 410 })
    await sdk('deactivate', { key: c.license.token, fingerprint: 'kiosk-1' })
    await c.agent.post(`/api/account/webhooks/${hook.id}/delete/`, {})
    received.length = 0
    await runDue()
    expect(received).toEqual([])
    expect((await deliveries(c))[0]).toMatchObject({ event: 'device.released', status: 'failed' })
  })

  it('the expiring-licence reminder emits license.expiring beside its mail', async () => {
    const c = await withKey()
    await endpoint(c, ['license.expiring'])
    const now = t.clock.now()
    await t.db.query(`UPDATE licenses SET expire_date = $2 WHERE id = $1`, [c.license.id, new Date(now.getTime() + 2 * 86400_000)])
    await t.db.query(`DELETE FROM subscriptions WHERE license_id = $1`, [c.license.id])
    expect(await sendExpiryWarnings(t.app.ctx, now)).toBe(1)
    const [row] = await t.db.query<{ event: string; body: string }>('SELECT event, body FROM webhook_deliveries')
    expect(row!.event).toBe('license.expiring')
    expect(JSON.parse(row!.body)).toMatchObject({ type: 'license.expiring', data: { license_id: c.license.id } })
  })
})
