import { createCipheriv, createDecipheriv, generateKeyPair, generateKeyPairSync, randomBytes } from 'node:crypto'
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Queryable } from '../db/db.ts'
import type { Logger } from '../context.ts'
import { anySealedValue, findSealedSecret, insertSealedSecretIfAbsent } from './queries.ts'

/**
 * The secrets every instance shares live in the database, sealed with one master key from the
 * environment (PORTAL_MASTER_KEY; docs/adr/secrets-in-the-database.md). A sealed value is
 * `v1.<base64url of 12-byte IV | 16-byte GCM tag | ciphertext>`, AES-256-GCM with the secret's name
 * as additional data, so a value moved to another name does not open either.
 */
const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16

/** The master key's 32 bytes from its text: base64 (or base64url) of 32 bytes, or 64 hex digits; null for anything else. */
export function masterKeyBytes(text: string): Buffer | null {
  const t = text.trim()
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex')
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) return null
  const bytes = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  return bytes.length === 32 ? bytes : null
}

/** A fresh master key's text (what `openssl rand -base64 32` prints). */
export const newMasterKey = () => randomBytes(32).toString('base64')

/**
 * The name of a value sealed only to be opened: the first start of a database stores it, and every
 * start opens it before it reads or writes any other secret, so a start with another master key
 * stops before it has sealed anything with that key.
 */
export const MASTER_KEY_CHECK = 'master-key-check'

/** The master key does not open what the database holds: the one error a start reports about it. */
export class MasterKeyMismatch extends Error {
  constructor(name: string) {
    const what = name === MASTER_KEY_CHECK ? 'keys and secrets' : name
    super(`PORTAL_MASTER_KEY: does not open the ${what} kept in the database (a different key sealed it): start with the key the other instances use`)
  }
}

export function seal(key: Buffer, name: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(name))
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`
}

/** The plaintext of a sealed value; MasterKeyMismatch when the key, the name or any byte differs. */
export function unseal(key: Buffer, name: string, sealed: string): string {
  const [version, data] = sealed.split('.')
  const bytes = Buffer.from(data ?? '', 'base64url')
  if (version !== VERSION || bytes.length < IV_BYTES + TAG_BYTES) throw new MasterKeyMismatch(name)
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES))
    decipher.setAAD(Buffer.from(name))
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
  } catch {
    throw new MasterKeyMismatch(name)
  }
}

/**
 * The master key of a development or test start without PORTAL_MASTER_KEY: generated once into
 * DATA_DIR/master-key (a production start refuses to go without the variable). Of processes
 * starting at once, one writes it and the rest read it.
 */
export function masterKeyFromDataDir(dir: string): string {
  const file = resolve(dir, 'master-key')
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true })
    // written whole under a name of its own, then linked into place: the link fails for all but the first
    const tmp = `${file}.${process.pid}.tmp`
    writeFileSync(tmp, newMasterKey() + '\n', { mode: 0o600 })
    try {
      linkSync(tmp, file)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    } finally {
      rmSync(tmp, { force: true })
    }
  }
  return readFileSync(file, 'utf8').trim()
}

/** A file of an older install's DATA_DIR, or null. */
export function legacyFile(dataDir: string, name: string): string | null {
  const path = join(dataDir, name)
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : null
}

/** What a shared secret came from at this start: the database, an older install's file, or made now. */
export type SecretOrigin = 'database' | 'imported' | 'created'

/**
 * The secret `name`: the database's; else an older install's file in DATA_DIR (`legacy`), else a
 * new one (`make`), stored unless another process stored one first; either way the stored one is
 * answered, so processes starting at once on an empty database agree.
 */
export async function sharedSecret(
  db: Queryable,
  key: Buffer,
  name: string,
  make: () => string | Promise<string>,
  legacy?: string | null,
): Promise<{ value: string; origin: SecretOrigin }> {
  const found = await findSealedSecret(db, name)
  if (found !== null) return { value: unseal(key, name, found), origin: 'database' }
  const value = legacy ?? (await make())
  const stored = await insertSealedSecretIfAbsent(db, name, seal(key, name, value))
  if (stored) return { value, origin: legacy ? 'imported' : 'created' }
  return { value: unseal(key, name, (await findSealedSecret(db, name))!), origin: 'database' }
}

/** Refuses a master key other than the one the database's secrets were sealed with (MasterKeyMismatch), before anything is written with it. */
export async function checkMasterKey(db: Queryable, key: Buffer): Promise<void> {
  if ((await findSealedSecret(db, MASTER_KEY_CHECK)) === null) {
    // a database sealed before the check value existed: one of its values must open first
    const any = await anySealedValue(db, MASTER_KEY_CHECK)
    if (any) unseal(key, any.kind === 'license-key' ? licenseKeySealName(any.name) : any.name, any.sealed)
  }
  await sharedSecret(db, key, MASTER_KEY_CHECK, () => randomBytes(16).toString('base64url'))
}

/** The name a license key's private key is sealed under (its additional data). */
export const licenseKeySealName = (kid: string) => `license-key:${kid}`

/** The secrets of one start; each explicitly configured one (SESSION_SECRET, SSO_SIGNING_KEY, …) wins over the database's. */
export interface PortalSecrets {
  sessionSecret: string
  sandboxWebhookSecret: string
  /** PKCS#8 PEM of the Ed25519 single sign-on key */
  ssoKeyPem: string
  /** PKCS#8 PEM of the helpdesk's RSA key */
  rsaKeyPem: string
}

export interface SecretSettings {
  DATA_DIR: string
  PORTAL_MASTER_KEY: string
  SESSION_SECRET?: string
  SSO_SIGNING_KEY?: string
  SSO_RSA_SIGNING_KEY?: string
}

const generateRsaPem = () =>
  new Promise<string>((done, fail) =>
    // asynchronous: an RSA key takes a moment to make, and the event loop keeps serving meanwhile
    generateKeyPair(
      'rsa',
      { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } },
      (err, _pub, priv) => (err ? fail(err) : done(priv)),
    ),
  )

/** The master key of a configuration, as bytes (the configuration checked its form at load). */
export function masterKeyOf(config: Pick<SecretSettings, 'PORTAL_MASTER_KEY'>): Buffer {
  const key = masterKeyBytes(config.PORTAL_MASTER_KEY)
  if (!key) throw new Error('PORTAL_MASTER_KEY: must be 32 bytes in base64 or 64 hex digits')
  return key
}

/**
 * The shared secrets for a start: read from the database (each opened with the master key), made
 * by the first process of a new database, or imported once from an older install's DATA_DIR files.
 * An import is logged, naming the file, which is no longer read afterwards.
 */
export async function loadSecrets(db: Queryable, config: SecretSettings, log?: Pick<Logger, 'info'>): Promise<PortalSecrets> {
  const key = masterKeyOf(config)
  await checkMasterKey(db, key)
  const dir = config.DATA_DIR
  const imported: string[] = []
  const take = async (name: string, file: string, make: () => string | Promise<string>) => {
    const got = await sharedSecret(db, key, name, make, legacyFile(dir, file))
    if (got.origin === 'imported') imported.push(file)
    return got.value
  }
  const ed25519Pem = () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
  const secrets: PortalSecrets = {
    sessionSecret: config.SESSION_SECRET ?? (await take('session-secret', 'session-secret', () => randomBytes(48).toString('base64url'))),
    sandboxWebhookSecret: await take('sandbox-webhook-secret', 'sandbox-webhook-secret', () => randomBytes(32).toString('base64url')),
    ssoKeyPem: config.SSO_SIGNING_KEY ?? (await take('sso-key', 'sso-key.pem', ed25519Pem)),
    rsaKeyPem: config.SSO_RSA_SIGNING_KEY ?? (await take('sso-rsa-key', 'sso-rsa-key.pem', generateRsaPem)),
  }
  if (imported.length > 0) {
    log?.info({ files: imported, dataDir: dir }, `imported ${imported.join(', ')} from DATA_DIR into the database (sealed); those files are no longer read`)
  }
  return secrets
}
