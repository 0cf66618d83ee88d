import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { parseLicenseFile } from '@portal/domain'
import { buildApp } from '../app.ts'
import { runCommand } from '../cli/commands.ts'
import { postgresDb, type Db } from '../db/db.ts'
import { signSandboxBody } from '../modules/payments/sandbox.ts'
import { Agent, DB_KIND, forgetSharedSecrets, signedInClient, testConfig, workerDatabaseUrl, workerDb } from '../test/harness.ts'
import { licenseFilePayload } from '../test/license-file.ts'
import { MasterKeyMismatch, loadSecrets, masterKeyBytes, masterKeyOf, newMasterKey, seal, sharedSecret, unseal } from './secrets.ts'
import { dbKeyring, signLicenseFile, verifyLicenseFile, type StoredKey } from './signing.ts'

const payload = licenseFilePayload({ license_id: 7 })

const tempDir = () => mkdtempSync(join(tmpdir(), 'portal-secrets-'))
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean()
})

/** The worker's database as a new one would be: no shared secrets, no signing keys. */
async function newDatabase(): Promise<{ db: Db; url: string | null }> {
  const db = await workerDb()
  await forgetSharedSecrets(db)
  return { db, url: workerDatabaseUrl() }
}

describe('sealing with the master key', () => {
  const key = masterKeyBytes(newMasterKey())!

  it('opens what it sealed, and nothing else: another key, another name, any changed byte', () => {
    const sealed = seal(key, 'session-secret', 'the plain secret')
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/)
    expect(sealed).not.toContain('plain')
    // a fresh IV each time: the same secret sealed twice reads differently
    expect(seal(key, 'session-secret', 'the plain secret')).not.toBe(sealed)
    expect(unseal(key, 'session-secret', sealed)).toBe('the plain secret')

    const body = Buffer.from(sealed.slice(3), 'base64url')
    const flipped = (at: number) => {
      const copy = Buffer.from(body)
      copy[at] = copy[at]! ^ 1
      return `v1.${copy.toString('base64url')}`
    }
    const refused: [Buffer, string, string][] = [
      [masterKeyBytes(newMasterKey())!, 'session-secret', sealed],
      [key, 'sandbox-webhook-secret', sealed],
      // the IV, the tag and the ciphertext each
      [key, 'session-secret', flipped(0)],
      [key, 'session-secret', flipped(14)],
      [key, 'session-secret', flipped(body.length - 1)],
      [key, 'session-secret', sealed.slice(0, 20)],
      [key, 'session-secret', `v2.${sealed.slice(3)}`],
    ]
    for (const [k, name, text] of refused) {
      expect(() => unseal(k, name, text)).toThrow(MasterKeyMismatch)
      expect(() => unseal(k, name, text)).toThrow(/^PORTAL_MASTER_KEY: does not open the /)
    }
  })

  it('takes the key as base64 or hex of 32 bytes only', () => {
    expect(masterKeyBytes('0f'.repeat(32))).toEqual(Buffer.alloc(32, 0x0f))
    expect(masterKeyBytes(Buffer.alloc(32, 1).toString('base64url'))).toEqual(Buffer.alloc(32, 1))
    for (const bad of ['', 'abc', '0f'.repeat(31), Buffer.alloc(31, 1).toString('base64'), Buffer.alloc(33, 1).toString('base64')])
      expect(masterKeyBytes(bad), bad).toBeNull()
  })
})

describe('the shared secrets of a new database', () => {
  // four starts make an RSA key each at once (one is kept): seconds on a loaded machine
  it('are made once, whoever starts first: starts at once get one set and one signing key', { timeout: 120_000 }, async () => {
    const fresh = await newDatabase()
    // each start on connections of its own where the database is a server's
    const dbs: Db[] = fresh.url ? Array.from({ length: 4 }, () => postgresDb(fresh.url!, 2)) : Array.from({ length: 4 }, () => fresh.db)
    if (fresh.url) cleanups.push(async () => void (await Promise.all(dbs.map((db) => db.close()))))
    const configs = dbs.map(() => testConfig({ SESSION_SECRET: '' }))
    const master = { PORTAL_MASTER_KEY: configs[0]!.PORTAL_MASTER_KEY }
    const all = await Promise.all(dbs.map((db, i) => loadSecrets(db, { ...configs[i]!, ...master })))
    expect(new Set(all.map((s) => JSON.stringify(s))).size).toBe(1)
    expect(all[0]!.sessionSecret.length).toBeGreaterThanOrEqual(32)
    expect(all[0]!.ssoKeyPem).toContain('PRIVATE KEY')
    const rings = await Promise.all(dbs.map((db, i) => dbKeyring({ db, masterKey: masterKeyOf(master), dataDir: configs[i]!.DATA_DIR })))
    expect(new Set(rings.map((r) => JSON.stringify(r.publicKeys()))).size).toBe(1)
    expect(rings[0]!.publicKeys()).toHaveLength(1)
    const rows = await fresh.db.query<{ name: string; sealed: string }>('SELECT name, sealed FROM portal_secrets ORDER BY name')
    expect(rows.map((r) => r.name)).toEqual(['master-key-check', 'sandbox-webhook-secret', 'session-secret', 'sso-key', 'sso-rsa-key'])
    // sealed at rest: no secret is in the table as itself
    expect(rows.some((r) => r.sealed.includes(all[0]!.sessionSecret) || r.sealed.includes('PRIVATE KEY'))).toBe(false)
  })

  it('insert-if-absent: of many racing makers of one secret, every one answers the stored value', async () => {
    const db = await workerDb()
    const key = masterKeyBytes(newMasterKey())!
    const name = `race-${Date.now()}-${Math.random().toString(36).slice(2)}`
    cleanups.push(async () => void (await db.query('DELETE FROM portal_secrets WHERE name = $1', [name])))
    let made = 0
    const got = await Promise.all(Array.from({ length: 6 }, () => sharedSecret(db, key, name, () => `value-${++made}`)))
    expect(new Set(got.map((g) => g.value)).size).toBe(1)
    expect(got.filter((g) => g.origin === 'created')).toHaveLength(1)
  })

  it('an older install’s DATA_DIR files are imported once, logged, and what they signed stays valid', async () => {
    const { db } = await newDatabase()
    const dir = tempDir()
    const legacyKey = generateKeyPairSync('ed25519')
    const stored: StoredKey = {
      kid: 'k20250101-legacy',
      private_key: legacyKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      public_key: legacyKey.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      created_at: '2025-01-01T00:00:00.000Z',
      retire_at: null,
    }
    writeFileSync(join(dir, 'license-keys.json'), JSON.stringify({ keys: [stored] }))
    writeFileSync(join(dir, 'session-secret'), 'old-session-secret-old-session-secret-42\n')
    writeFileSync(join(dir, 'sandbox-webhook-secret'), 'old-webhook-secret\n')
    const ssoPem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    writeFileSync(join(dir, 'sso-key.pem'), ssoPem)
    const oldFile = signLicenseFile({ ...payload, kid: stored.kid }, stored.kid, legacyKey.privateKey)

    const lines: string[] = []
    const log = { info: (_: object, msg?: string) => void lines.push(msg ?? ''), warn: () => undefined }
    const config = testConfig({ DATA_DIR: dir, SESSION_SECRET: '' })
    const secrets = await loadSecrets(db, config, log)
    const ring = await dbKeyring({ db, masterKey: masterKeyOf(config), dataDir: dir, log })
    expect(secrets).toMatchObject({
      sessionSecret: 'old-session-secret-old-session-secret-42',
      sandboxWebhookSecret: 'old-webhook-secret',
      ssoKeyPem: ssoPem.trim(),
    })
    expect(lines).toEqual([
      'imported session-secret, sandbox-webhook-secret, sso-key.pem from DATA_DIR into the database (sealed); those files are no longer read',
      'imported 1 license signing key(s) from DATA_DIR/license-keys.json into the database (sealed); the file is no longer read',
    ])
    expect(verifyLicenseFile(oldFile, ring.publicKeys())).toMatchObject({ ok: true })
    // the imported key is the newest live one: it goes on signing
    expect(parseLicenseFile(ring.sign(payload))!.kid).toBe(stored.kid)

    // the next start reads the database and imports nothing; another machine's different file loses to the database
    lines.length = 0
    writeFileSync(join(dir, 'session-secret'), 'changed-after-import-changed-after-import\n')
    expect((await loadSecrets(db, config, log)).sessionSecret).toBe('old-session-secret-old-session-secret-42')
    expect((await dbKeyring({ db, masterKey: masterKeyOf(config), dataDir: dir, log })).publicKeys()).toEqual(ring.publicKeys())
    expect(lines).toEqual([])
  })

  it('a start with another master key stops with one line naming PORTAL_MASTER_KEY', async () => {
    const { db } = await newDatabase()
    await loadSecrets(db, testConfig({ SESSION_SECRET: '' }))
    const other = testConfig({ SESSION_SECRET: '', PORTAL_MASTER_KEY: newMasterKey() })
    const start = buildApp({ config: other, db, runJobs: false })
    await expect(start).rejects.toBeInstanceOf(MasterKeyMismatch)
    await expect(start).rejects.toThrow(/^PORTAL_MASTER_KEY: does not open the keys and secrets kept in the database/)
    // the keyring alone (the CLI's license:keys) says the same, and the refused starts wrote nothing
    const before = await db.query('SELECT name, sealed FROM portal_secrets ORDER BY name')
    await expect(dbKeyring({ db, masterKey: masterKeyOf(other), dataDir: tempDir() })).rejects.toThrow(/^PORTAL_MASTER_KEY: does not open the keys and secrets/)
    expect(await db.query('SELECT name, sealed FROM portal_secrets ORDER BY name')).toEqual(before)
    expect(await db.query('SELECT kid FROM license_signing_keys')).toEqual([])
    // a database sealed before the check value existed is checked against one of its values instead
    await db.query('DELETE FROM portal_secrets WHERE name = $1', ['master-key-check'])
    await expect(loadSecrets(db, other)).rejects.toThrow(
      /^PORTAL_MASTER_KEY: does not open the (session-secret|sso-key|sso-rsa-key|sandbox-webhook-secret) kept/,
    )
    expect(await db.query('SELECT name FROM portal_secrets WHERE name = $1', ['master-key-check'])).toEqual([])
    await expect(dbKeyring({ db, masterKey: masterKeyOf(testConfig()), dataDir: tempDir() })).resolves.toBeDefined()
  })
})

describe('the keyring read again in the background', () => {
  it('a process sees a key rotated by another on its next poll, without a restart', async () => {
    const db = await workerDb()
    const config = testConfig()
    const listening = await dbKeyring({ db, masterKey: masterKeyOf(config), dataDir: tempDir(), refreshMs: 50 })
    cleanups.push(() => listening.close())
    const other = await dbKeyring({ db, masterKey: masterKeyOf(config), dataDir: tempDir() })
    const { kid } = await other.rotate()
    await expect.poll(() => parseLicenseFile(listening.sign(payload))!.kid).toBe(kid)
    await other.retire(kid, new Date(Date.now() + 3_600_000))
    await expect.poll(() => listening.publicKeys().find((k) => k.kid === kid)?.retire_at).not.toBeNull()
  })
})

describe.runIf(DB_KIND === 'postgres')('two instances with their own DATA_DIR on one PostgreSQL database', () => {
  async function instance(refreshMs: number): Promise<{ app: FastifyInstance; db: Db; dir: string }> {
    await workerDb()
    const db = postgresDb(workerDatabaseUrl()!, 4)
    const dir = tempDir()
    // no SESSION_SECRET: the session secret is the database's, as on a server with none configured
    const app = await buildApp({ config: testConfig({ DATA_DIR: dir, SESSION_SECRET: '' }), db, runJobs: false, keyringRefreshMs: refreshMs })
    await app.ready()
    cleanups.push(async () => {
      await app.close()
      await db.close()
    })
    return { app, db, dir }
  }

  it('sign with the same keys, accept each other’s sessions and webhooks, and see a rotation made on either', async () => {
    const a = await instance(0)
    // B's poll is far off: what it learns within the test, it learns from the NOTIFY of the change
    const b = await instance(600_000)
    expect(a.app.ctx.secrets).toEqual(b.app.ctx.secrets)
    const served = async (app: FastifyInstance, url: string) => (await app.inject({ method: 'GET', url })).json()

    // a license file signed on A verifies with the key list B serves to devices
    const fileOnA = a.app.ctx.keyring.sign(payload)
    expect(verifyLicenseFile(fileOnA, (await served(b.app, '/api/license/public-key/')).keys)).toMatchObject({ ok: true })
    // one single sign-on key, one helpdesk key
    for (const url of ['/api/service/sso-public-key/', '/api/service/freshdesk/public-key/']) expect(await served(a.app, url)).toEqual(await served(b.app, url))

    // a session made on A is good on B
    const { agent, client } = await signedInClient({ app: a.app, db: a.db })
    const onB = new Agent(b.app)
    onB.cookies = new Map(agent.cookies)
    const me = await onB.get('/api/client/')
    expect(me.statusCode).toBe(200)
    expect(me.json()).toMatchObject({ client_info: { email: client.email } })

    // a sandbox webhook signed with A's secret is taken by B; one signed otherwise is not
    const event = JSON.stringify({
      id: 'evt_shared',
      type: 'checkout.session.completed',
      data: { session_id: 'sbx_none', amount_cents: 100, payment_method: null },
    })
    const deliver = (signature: string) =>
      b.app.inject({
        method: 'POST',
        url: '/api/payments/webhook/sandbox/',
        headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
        payload: event,
      })
    expect((await deliver(signSandboxBody(a.app.ctx.secrets.sandboxWebhookSecret, event))).statusCode).toBe(200)
    expect((await deliver(signSandboxBody('another-secret', event))).statusCode).toBe(400)

    // license:keys rotate, as the CLI runs it on the database (its own keyring, not a running portal's)
    const cli = await runCommand(a.db, ['license:keys', 'rotate'], {
      keyring: () => dbKeyring({ db: a.db, masterKey: masterKeyOf(a.app.ctx.config), dataDir: a.dir }),
    })
    expect(cli.code, cli.output).toBe(0)
    const kid = /New signing key (\S+)\./.exec(cli.output)![1]!
    // B reads the keyring again when the change is announced: it serves the new key, then signs with it
    await expect.poll(async () => (await served(b.app, '/api/license/public-key/')).keys.map((k: { kid: string }) => k.kid)).toContain(kid)
    expect(parseLicenseFile(b.app.ctx.keyring.sign(payload))!.kid).toBe(kid)
    // A refreshes too (its background read is off here); the file signed before still verifies everywhere
    await a.app.ctx.keyring.refresh()
    expect(parseLicenseFile(a.app.ctx.keyring.sign(payload))!.kid).toBe(kid)
    expect(verifyLicenseFile(fileOnA, (await served(b.app, '/api/license/public-key/')).keys)).toMatchObject({ ok: true })
  })
})
