/**
 * The bench's baseline (scripts/bench.ts): bare Fastify answering one primary-key SELECT, in a process
 * of its own as the portal's server is, so that both are measured across the same processes (load
 * generator, server, PostgreSQL). DATABASE_URL and PORT from the environment.
 */
import Fastify from 'fastify'
import pg from 'pg'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
const bare = Fastify()
bare.get('/bare/:id', async (req) => (await pool.query('SELECT id, email FROM clients WHERE id = $1', [(req.params as { id: string }).id])).rows[0])
bare.get('/bare/health', async () => ({ ok: true }))
await bare.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
