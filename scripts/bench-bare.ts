/**
 * The bench's floor (scripts/bench-floor.ts) in a process of its own, as the portal's server is, so
 * that the floor and the server are measured across the same processes (load generator, server,
 * PostgreSQL). DATABASE_URL and PORT from the environment; scripts/bench.ts starts and ends it.
 */
import { floorApp } from './bench-floor.ts'

await floorApp(process.env.DATABASE_URL!).listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
