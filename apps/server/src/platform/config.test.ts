import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, productionWarnings } from './config.ts'
import { masterKeyBytes, newMasterKey } from './secrets.ts'

const MASTER_KEY = newMasterKey()
const tempDir = () => mkdtempSync(join(tmpdir(), 'cfg-'))

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env)
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    return (err as ConfigError).problems
  }
  throw new Error('loadConfig accepted a bad environment')
}

describe('loadConfig', () => {
  it('reports one problem per bad value, each naming its variable', () => {
    const problems = problemsOf({ DATA_DIR: tempDir(), PORT: 'abc', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://x', LOG_LEVEL: 'loud' })
    expect(problems).toHaveLength(4)
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'PORT', 'SMTP_URL'])
    expect(problems.find((p) => p.startsWith('DATABASE_URL'))).toContain('postgres://')
    expect(problems.find((p) => p.startsWith('SMTP_URL'))).toContain('smtp://')
  })

  it('refuses other bad values too: port out of range, short secret, unknown NODE_ENV', () => {
    const problems = problemsOf({ DATA_DIR: tempDir(), PORT: '70000', SESSION_SECRET: 'short', NODE_ENV: 'staging' })
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['NODE_ENV', 'PORT', 'SESSION_SECRET'])
  })

  it('keeps the standard password cost by default and refuses the test cost in production', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).PASSWORD_HASH_COST).toBe('standard')
    expect(loadConfig({ DATA_DIR: tempDir(), NODE_ENV: 'test', PASSWORD_HASH_COST: 'test' }).PASSWORD_HASH_COST).toBe('test')
    const seller = JSON.stringify({ name: 'V', address: 'A', tax_id: 'T', email: 'e@example.com' })
    const problems = problemsOf({ DATA_DIR: tempDir(), NODE_ENV: 'production', INVOICE_SELLER: seller, PASSWORD_HASH_COST: 'test' })
    expect(problems.map((p) => p.split(':')[0])).toEqual(['PASSWORD_HASH_COST'])
  })

  it('PAYPAL_MERCHANT_ID must be a PayPal account id (13 characters of its base32)', () => {
    for (const bad of ['MERCHANTFAKE', 'merchantfake2', 'MERCHANTFAKEI', 'MERCHANT-FAKE'])
      expect(problemsOf({ DATA_DIR: tempDir(), PAYPAL_MERCHANT_ID: bad }).map((p) => p.split(':')[0])).toEqual(['PAYPAL_MERCHANT_ID'])
    expect(loadConfig({ DATA_DIR: tempDir(), PAYPAL_MERCHANT_ID: 'MERCHANTFAKE2' }).PAYPAL_MERCHANT_ID).toBe('MERCHANTFAKE2')
  })

  it('accepts good values and treats empty ones as unset', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      PORT: '8080',
      DATABASE_URL: 'postgresql://u@h/db',
      SMTP_URL: 'smtps://u:p@mail.example:465',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: '',
    })
    expect(config).toMatchObject({
      PORT: 8080,
      databaseKind: 'postgres',
      SMTP_URL: 'smtps://u:p@mail.example:465',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'http://localhost:8080',
    })
  })

  it('defaults to PGlite, generates the master key into DATA_DIR once outside production, and derives PUBLIC_URL', () => {
    const dir = tempDir()
    const a = loadConfig({ DATA_DIR: dir, PORT: '4000' })
    expect(a.databaseKind).toBe('pglite')
    expect(masterKeyBytes(a.PORTAL_MASTER_KEY)).toHaveLength(32)
    const file = join(dir, 'master-key')
    expect(readFileSync(file, 'utf8').trim()).toBe(a.PORTAL_MASTER_KEY)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    // the next start reads the same key, so it opens what the first sealed
    expect(loadConfig({ DATA_DIR: dir }).PORTAL_MASTER_KEY).toBe(a.PORTAL_MASTER_KEY)
    expect(loadConfig({ DATA_DIR: tempDir() }).PORTAL_MASTER_KEY).not.toBe(a.PORTAL_MASTER_KEY)
    // no session secret is made here any more: it is kept in the database (platform/secrets.ts)
    expect(a.SESSION_SECRET).toBeUndefined()
    expect(existsSync(join(dir, 'session-secret'))).toBe(false)
    expect(a.PUBLIC_URL).toBe('http://localhost:4000')
    expect(loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://portal.example/' }).PUBLIC_URL).toBe('https://portal.example')
  })

  it('a PORTAL_MASTER_KEY given in the environment wins over the file, and must be 32 bytes', () => {
    const dir = tempDir()
    loadConfig({ DATA_DIR: dir })
    expect(loadConfig({ DATA_DIR: dir, PORTAL_MASTER_KEY: MASTER_KEY }).PORTAL_MASTER_KEY).toBe(MASTER_KEY)
    expect(loadConfig({ DATA_DIR: dir, PORTAL_MASTER_KEY: 'ab'.repeat(32) }).PORTAL_MASTER_KEY).toBe('ab'.repeat(32))
    for (const bad of ['short', 'x'.repeat(44), Buffer.alloc(16).toString('base64')])
      expect(problemsOf({ DATA_DIR: dir, PORTAL_MASTER_KEY: bad })).toEqual([
        'PORTAL_MASTER_KEY: must be 32 random bytes in base64 (openssl rand -base64 32) or 64 hex digits',
      ])
  })

  it('a production start without PORTAL_MASTER_KEY is refused with one line naming it, and writes no key', () => {
    const dir = tempDir()
    const seller = JSON.stringify({ name: 'V', address: 'A', tax_id: 'T', email: 'e@example.com' })
    const problems = problemsOf({ DATA_DIR: dir, NODE_ENV: 'production', INVOICE_SELLER: seller })
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/^PORTAL_MASTER_KEY: must be set in production, the same on every instance/)
    expect(existsSync(join(dir, 'master-key'))).toBe(false)
    expect(loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', INVOICE_SELLER: seller, PORTAL_MASTER_KEY: MASTER_KEY }).PORTAL_MASTER_KEY).toBe(MASTER_KEY)
  })
})

describe('TRUST_PROXY', () => {
  const dir = tempDir()
  it('is unset by default, and takes a hop count or a list of addresses and CIDRs', () => {
    expect(loadConfig({ DATA_DIR: dir }).TRUST_PROXY).toBeUndefined()
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1)
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.7 ,::1,fd00::/8, loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
      'loopback',
    ])
  })

  it('refuses anything else with one problem naming it', () => {
    for (const bad of ['true', 'yes', '10.0.0.0/33', '300.1.1.1', '10.0.0.1, proxy.example', '-1', '21', ',']) {
      const problems = problemsOf({ DATA_DIR: dir, TRUST_PROXY: bad })
      expect(problems, bad).toHaveLength(1)
      expect(problems[0], bad).toMatch(/^TRUST_PROXY: must be a hop count/)
    }
  })
})

describe('productionWarnings', () => {
  const seller = JSON.stringify({ name: 'Vendor Ltd', address: '1 Main St', tax_id: 'GB123', email: 'billing@example.com' })
  const ready = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://portal@db:5432/portal',
    PUBLIC_URL: 'https://portal.example.com',
    SMTP_URL: 'smtps://u:p@smtp.example.com:465',
    INVOICE_SELLER: seller,
    TRUST_PROXY: '10.0.0.0/8',
    SESSION_SECRET: 'x'.repeat(32),
    PORTAL_MASTER_KEY: MASTER_KEY,
  }
  const warningsOf = (env: Record<string, string | undefined>) => productionWarnings(loadConfig({ DATA_DIR: tempDir(), ...env }))

  it('says nothing of a production start with every setting docs/deploy.md asks for, nor outside production', () => {
    expect(warningsOf(ready)).toEqual([])
    expect(warningsOf({ NODE_ENV: 'development' })).toEqual([])
  })

  it('names each missing setting of a staging start (production with the sandbox), and what customers would meet', () => {
    const warnings = warningsOf({ NODE_ENV: 'production', PAYMENTS_SANDBOX: '1', PORTAL_MASTER_KEY: MASTER_KEY })
    expect(warnings.map((w) => w.split(' ')[0])).toEqual(['DATABASE_URL', 'PUBLIC_URL', 'SMTP_URL', 'INVOICE_SELLER', 'TRUST_PROXY'])
    expect(warnings.find((w) => w.startsWith('SMTP_URL'))).toContain('reaches no customer')
    expect(warnings.find((w) => w.startsWith('PUBLIC_URL'))).toContain('http://localhost:3000')
  })

  it('names the seller fields an INVOICE_SELLER leaves to the placeholders', () => {
    const partial = JSON.stringify({ name: 'Vendor Ltd', address: ' ' })
    expect(warningsOf({ ...ready, PAYMENTS_SANDBOX: '1', INVOICE_SELLER: partial })).toEqual([
      'INVOICE_SELLER lacks address, tax_id, email: invoices print placeholders there',
    ])
  })

  it('refuses a production start whose invoices would print the placeholder seller, unless it is a sandbox staging site', () => {
    const partial = JSON.stringify({ name: 'Vendor Ltd', address: ' ' })
    for (const INVOICE_SELLER of [undefined, partial]) {
      let error: unknown
      try {
        loadConfig({ DATA_DIR: tempDir(), ...ready, INVOICE_SELLER })
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).problems).toEqual([
        `INVOICE_SELLER: ${INVOICE_SELLER ? 'address, tax_id, email' : 'name, address, tax_id, email'} must be set in production (the seller printed on every invoice)`,
      ])
    }
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...ready, INVOICE_SELLER: partial, PAYMENTS_SANDBOX: '1' })).not.toThrow()
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...ready, INVOICE_SELLER: undefined, NODE_ENV: 'development' })).not.toThrow()
  })

  it("takes the seller's country as an ISO code and refuses anything else", () => {
    expect(loadConfig({ DATA_DIR: tempDir(), INVOICE_SELLER: JSON.stringify({ country: 'DE' }) }).INVOICE_SELLER).toEqual({ country: 'DE' })
    expect(() => loadConfig({ DATA_DIR: tempDir(), INVOICE_SELLER: JSON.stringify({ country: 'Germany' }) })).toThrow(ConfigError)
  })

  it('warns of a plain http PUBLIC_URL alone', () => {
    expect(warningsOf({ ...ready, PUBLIC_URL: 'http://portal.example.com' })).toEqual([
      'PUBLIC_URL is not https (http://portal.example.com): cookies are not Secure and there is no HSTS',
    ])
  })
})
