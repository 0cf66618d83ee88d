import { describe, expect, it } from 'vitest'
import { buildApp } from '../app.ts'
import { postgresDb } from '../db/db.ts'
import { Agent, DB_KIND, STRONG_PASSWORD, signedInClient, testConfig, useTestApp, workerDatabaseUrl } from '../test/harness.ts'

const t = useTestApp()

describe('rate limits across server processes', () => {
  // two app instances with their own connection pools on one PostgreSQL, as two processes would be
  it.runIf(DB_KIND === 'postgres')('sign-in attempts made against two servers add up to one limit', async () => {
    const { email } = await signedInClient(t)
    const otherDb = postgresDb(workerDatabaseUrl()!, 4)
    const other = await buildApp({ config: testConfig(), db: otherDb })
    try {
      const agents = [new Agent(t.app, '10.7.7.7'), new Agent(other, '10.7.7.7')]
      const codes: number[] = []
      for (let i = 0; i < 12; i++) codes.push((await agents[i % 2]!.post('/api/client/signin/', { username: email, password: 'Wrong-pass1' })).statusCode)
      // signedInClient signed in once already: 9 more tries fit in the 10 per e-mail
      expect(codes.slice(0, 9).every((c) => c === 400)).toBe(true)
      expect(codes.slice(9)).toEqual([429, 429, 429])
      expect((await agents[1]!.post('/api/client/signin/', { username: email, password: STRONG_PASSWORD })).statusCode).toBe(429)
    } finally {
      await other.close()
      await otherDb.close()
    }
  })
})
