import { describe, expect, it, vi } from 'vitest'
import { expectError, signedInClient, useTestApp } from '../../test/harness.ts'
import { paidTopUp } from '../../test/transactions.ts'

// the renderer fails (a broken font file, a bug): the call answers the catalogue's 500 and the server goes on
const failing = vi.hoisted(() => ({ on: true }))
vi.mock('./invoice.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./invoice.ts')>()
  return {
    ...real,
    renderInvoice: (data: Parameters<typeof real.renderInvoice>[0]) => (failing.on ? Promise.reject(new Error('font file unreadable')) : real.renderInvoice(data)),
  }
})

const t = useTestApp()

describe('an invoice that cannot be generated', () => {
  it('answers 500 internal_server_error, and the next call is served', async () => {
    const { agent, client } = await signedInClient(t)
    const paid = await paidTopUp(t.db, client.id, 9_900)
    failing.on = true
    const res = await agent.get(`/api/transaction/${paid.id}/invoice/`)
    expectError(res, 500, 'internal_server_error')
    expect(res.json().error).toBe('Something went wrong, please try again later.')
    expect(res.headers['content-disposition']).toBeUndefined()
    expect((await agent.get('/api/transaction/')).statusCode).toBe(200)
    failing.on = false
    const ok = await agent.get(`/api/transaction/${paid.id}/invoice/`)
    expect(ok.statusCode).toBe(200)
    expect(ok.headers['content-type']).toBe('application/pdf')
  })
})
