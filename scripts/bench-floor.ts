/**
 * The bench's floor: bare Fastify answering one primary-key SELECT on the portal's database, the least
 * a route on this stack can do. scripts/bench-bare.ts serves it in a process of its own (the goal's
 * floor); scripts/bench.ts also serves it inside its own process, as runs before 2026-11-26 did.
 */
import Fastify from 'fastify'
import pg from 'pg'

export function floorApp(databaseUrl: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
  const app = Fastify()
  app.get('/bare/:id', async (req) => (await pool.query('SELECT id, email FROM clients WHERE id = $1', [(req.params as { id: string }).id])).rows[0])
  app.get('/bare/health', async () => ({ ok: true }))
  app.addHook('onClose', async () => pool.end())
  return app
}
