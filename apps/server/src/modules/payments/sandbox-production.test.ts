import { describe, expect, it } from 'vitest'
import { buildApp } from '../../app.ts'
import { Agent, count, expectError, signedInClient, testConfig, useTestApp, workerDb, PRODUCTION_SELLER } from '../../test/harness.ts'
import { TOP_UP } from '../../test/money.ts'

const t = useTestApp({ NODE_ENV: 'production', INVOICE_SELLER: PRODUCTION_SELLER })

describe('the sandbox in production', () => {
  it('without PAYMENTS_SANDBOX: every sandbox route and the page answer 404, and a top-up answers external_payments_unavailable', async () => {
    const a = new Agent(t.app)
    expectError(await a.get('/api/sandbox/checkout/sbx_x/'), 404, 'd7b928d5')
    expectError(await a.post('/api/sandbox/checkout/sbx_x/pay/', {}), 404, 'd7b928d5')
    expectError(await a.post('/api/sandbox/checkout/sbx_x/cancel/', {}), 404, 'd7b928d5')
    expectError(await a.post('/api/payments/webhook/sandbox/', {}, { csrf: false }), 404, 'd7b928d5')
    expect((await a.get('/sandbox/checkout/sbx_x/')).statusCode).toBe(404)
    expect((await a.get('/sandbox/checkout.js')).statusCode).toBe(404)
    expect(t.app.ctx.payments.describe()).toEqual({ stripe: 'unavailable', paypal: 'unavailable' })
    expect(t.app.ctx.payments.byName('sandbox')).toBeUndefined()

    const { agent } = await signedInClient(t)
    expectError(await agent.post('/api/balance/refill/', { ...TOP_UP, amount: 100 }), 503, 'external_payments_unavailable')
    expectError(await agent.post('/api/balance/refill/', { ...TOP_UP, amount: 100, payment_source: 'paypal' }), 503, 'external_payments_unavailable')
    expect(await count(t.db, 'transactions')).toBe(0)
  })

  it('with PAYMENTS_SANDBOX=1 (a staging site) the sandbox serves both sources', async () => {
    const app = await buildApp({ config: testConfig({ NODE_ENV: 'production', PAYMENTS_SANDBOX: '1' }), db: await workerDb(), runJobs: false })
    await app.ready()
    try {
      expect(app.ctx.payments.describe()).toEqual({ stripe: 'sandbox', paypal: 'sandbox' })
      const { agent } = await signedInClient({ app, db: t.db })
      const res = await agent.post('/api/balance/refill/', { ...TOP_UP, amount: 100 })
      expect(res.statusCode, res.body).toBe(200)
      const session = res.json().payment.provider_data.session_id
      expect((await agent.get(`/api/sandbox/checkout/${session}/`)).statusCode).toBe(200)
      const page = await agent.get(`/sandbox/checkout/${session}/`)
      expect(page.statusCode).toBe(200)
      expect(page.body).toContain('$100.00')
      expect((await agent.get('/sandbox/checkout.js')).statusCode).toBe(200)
      expect((await agent.post(`/api/sandbox/checkout/${session}/cancel/`)).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })
})
