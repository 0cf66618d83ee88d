import { spawn, type ChildProcess } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { afterEach } from 'vitest'
import { buildApp } from '../app.ts'
import { postgresDb, type Db } from '../db/db.ts'
import { testConfig, workerDatabaseUrl } from './harness.ts'

const CHILD = fileURLToPath(new URL('./child-server.ts', import.meta.url))

/**
 * The environment of a portal process a test starts (Node runs the TypeScript source itself): with
 * Node's compile cache, so the second and later starts skip compiling the server's modules again.
 */
export const childProcessEnv = (env: Record<string, string>) => ({
  ...process.env,
  NODE_COMPILE_CACHE: join(tmpdir(), 'portal-node-compile-cache'),
  ...env,
})

export interface Child {
  proc: ChildProcess
  base: string
}

/**
 * Two portals on the worker's PostgreSQL database, as two instances behind a load balancer: a child
 * process (test/child-server.ts, which may be killed) and one in this process on its own connections,
 * both listening on loopback with one DATA_DIR. Everything started is stopped after each test.
 */
export function useProcesses() {
  const children: ChildProcess[] = []
  const closers: (() => Promise<void>)[] = []

  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
    for (const close of closers.splice(0)) await close()
  })

  /** A portal in a child process; `runJobs` starts its job loop; `env` adds to its environment. */
  async function startChild(dataDir: string, runJobs = false, env: Record<string, string> = {}): Promise<Child> {
    const proc = spawn(process.execPath, [CHILD], {
      env: childProcessEnv({ ...env, CHILD_DATABASE_URL: workerDatabaseUrl()!, CHILD_DATA_DIR: dataDir, CHILD_RUN_JOBS: runJobs ? '1' : '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.push(proc)
    let err = ''
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    const port = await new Promise<number>((resolve, reject) => {
      let out = ''
      proc.stdout!.on('data', (d: Buffer) => {
        out += d.toString()
        const line = out.split('\n').find((l) => l.startsWith('{'))
        if (line) resolve((JSON.parse(line) as { port: number }).port)
      })
      proc.on('exit', (code) => reject(new Error(`the child portal exited (${code}): ${err}`)))
    })
    return { proc, base: `http://127.0.0.1:${port}` }
  }

  /** This process's portal on its own connections, listening on loopback (job loop off). */
  async function startHere(dataDir: string): Promise<{ app: FastifyInstance; db: Db; base: string }> {
    const db = postgresDb(workerDatabaseUrl()!, 6)
    const app = await buildApp({ config: testConfig({ DATA_DIR: dataDir }), db, runJobs: false })
    await app.listen({ port: 0, host: '127.0.0.1' })
    closers.push(async () => {
      await app.close()
      await db.close()
    })
    return { app, db, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` }
  }

  return { startChild, startHere }
}
