import { expect, it } from 'vitest'
import { Agent, STRONG_PASSWORD, expectError, useTestApp, PRODUCTION_SELLER } from '../../test/harness.ts'

const t = useTestApp({ NODE_ENV: 'production', INVOICE_SELLER: PRODUCTION_SELLER })

it('the dev mailbox does not exist in production (404), though mail is still queued', async () => {
  const a = new Agent(t.app)
  expect((await a.post('/api/client/signup/', { username: 'prod@example.com', password: STRONG_PASSWORD })).statusCode).toBe(201)
  expect((await t.db.query('SELECT 1 FROM mail_outbox')).length).toBe(1)
  const json = await a.get('/dev/mailbox.json')
  expectError(json, 404, 'd7b928d5')
  expect(json.body).not.toContain('prod@example.com')
  const page = await a.get('/dev/mailbox')
  expectError(page, 404, 'd7b928d5')
  expect(page.body).not.toContain('prod@example.com')
})
