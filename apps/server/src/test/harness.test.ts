import { describe, expect, it } from 'vitest'
import { KEPT_TABLES, count, signedInClient, useTestApp } from './harness.ts'

describe('the test harness empties the database between tests', () => {
  const t = useTestApp()

  it('leaves data, a changed price and a used sequence behind', async () => {
    await signedInClient(t)
    await signedInClient(t)
    await t.db.query(`UPDATE prices SET cost_cents = cost_cents + 1`)
    await t.db.query(`INSERT INTO activity_events (client_id, kind, details) SELECT id, 'renamed', '{}' FROM clients`)
    expect(await count(t.db, 'clients')).toBe(2)
  })

  it('starts from empty tables, ids from 1, the seeded prices and the counter row, with every rule in force', async () => {
    const tables = await t.db.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)
    for (const { tablename } of tables) {
      if (KEPT_TABLES.has(tablename) || tablename === 'invoice_counter') continue
      expect(await count(t.db, tablename), tablename).toBe(0)
    }
    expect(await count(t.db, 'invoice_counter WHERE last = 0')).toBe(1)
    expect(await count(t.db, '(SELECT * FROM prices EXCEPT SELECT * FROM test_seed_prices) changed')).toBe(0)
    const { client } = await signedInClient(t)
    expect(client.id).toBe(1)
    // the foreign keys and the append-only trigger hold again after the reset
    await expect(t.db.query(`INSERT INTO sessions (id_hash, client_id, expires_at) VALUES ('x', 999, now())`)).rejects.toThrow(/foreign key/)
    await t.db.query(`INSERT INTO activity_events (client_id, kind, details) VALUES ($1, 'renamed', '{}')`, [client.id])
    await expect(t.db.query(`DELETE FROM activity_events`)).rejects.toThrow()
  })
})
