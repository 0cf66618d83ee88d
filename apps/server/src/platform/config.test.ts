import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

describe('configuration', () => {
  it('reports one line per bad value', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'))
    try {
      loadConfig({ DATA_DIR: dir, PORT: 'abc', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://x', LOG_LEVEL: 'loud', NODE_ENV: 'staging' })
      expect.unreachable()
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError)
      const problems = (err as ConfigError).problems
      expect(problems).toHaveLength(5)
      expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'NODE_ENV', 'PORT', 'SMTP_URL'])
    }
  })

  it('defaults to PGlite, generates the session secret into DATA_DIR once, and derives PUBLIC_URL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'))
    const a = loadConfig({ DATA_DIR: dir, PORT: '4000' })
    const b = loadConfig({ DATA_DIR: dir })
    expect(a.databaseKind).toBe('pglite')
    expect(a.SESSION_SECRET.length).toBeGreaterThanOrEqual(32)
    expect(b.SESSION_SECRET).toBe(a.SESSION_SECRET)
    expect(a.PUBLIC_URL).toBe('http://localhost:4000')
    expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://u@h/db', PUBLIC_URL: 'https://portal.example/' })).toMatchObject({
      databaseKind: 'postgres',
      PUBLIC_URL: 'https://portal.example',
    })
  })
})
