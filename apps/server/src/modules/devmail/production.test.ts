import { expect, it } from 'vitest'
import { Agent, useTestApp } from '../../test/harness.ts'

const t = useTestApp({ NODE_ENV: 'production' })

it('the dev mailbox does not exist in production', async () => {
  const a = new Agent(t.app)
  expect((await a.get('/dev/mailbox.json')).statusCode).toBe(404)
  expect((await a.get('/dev/mailbox')).statusCode).toBe(404)
})
