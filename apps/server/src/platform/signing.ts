import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LICENSE_FILE_HEADER, encodeBase64, parseLicenseFile, type LicenseFilePayload, type ParsedLicenseFile } from '@portal/domain'
import type { Db, Queryable } from '../db/db.ts'
import type { Logger } from '../context.ts'
import { randomToken } from './crypto.ts'
import {
  KEYRING_CHANNEL,
  hasLiveSigningKey,
  insertSigningKey,
  listSigningKeys,
  lockSigningKeys,
  notifyKeyringChanged,
  setSigningKeyRetirement,
} from './queries.ts'
import { checkMasterKey, licenseKeySealName, seal, unseal } from './secrets.ts'

/**
 * License signing keys (Ed25519), kept in the database with each private key sealed by
 * PORTAL_MASTER_KEY (platform/secrets.ts), so every instance signs with the same keys. Every key has
 * a kid and an optional retirement date. The newest key not yet retired signs; every key stays
 * published with its retirement date, so an SDK that holds the set accepts old files until their
 * key retires. LICENSE_SIGNING_KEY (a PKCS#8 PEM) pins one key instead.
 *
 * Activation signs on its hot path, so `sign` and `publicKeys` answer from memory: each process
 * reads the keyring once at start and again in the background, at once when a change is announced
 * (NOTIFY on PostgreSQL) and every KEYRING_REFRESH_MS whatever happens, so a rotation made anywhere
 * (`license:keys rotate`) is seen by every instance within that time at the latest.
 */
export interface StoredKey {
  kid: string
  private_key: string
  public_key: string
  created_at: string
  retire_at: string | null
}

export interface PublicKeyInfo {
  kid: string
  algorithm: 'Ed25519'
  public_key: string
  created_at: string
  retire_at: string | null
}

export interface Keyring {
  sign(payload: Omit<LicenseFilePayload, 'kid'>): string
  publicKeys(): PublicKeyInfo[]
  /** a new signing key, stored for every instance; this process signs with it at once */
  rotate(): Promise<PublicKeyInfo>
  retire(kid: string, at: Date): Promise<PublicKeyInfo>
  /** reads the keyring from the database again (the background refresh does this on its own) */
  refresh(): Promise<void>
  /** ends the background refresh */
  close(): Promise<void>
}

/** How often a process reads the keyring again: the longest a rotation elsewhere goes unseen. */
export const KEYRING_REFRESH_MS = 10_000

/** The file an older install kept its keyring in; imported into the database once. */
export const LEGACY_KEYRING_FILE = 'license-keys.json'

function newKey(): StoredKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  return {
    kid: `k${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-${randomToken(4).replace(/[^A-Za-z0-9]/g, 'x')}`,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    created_at: new Date().toISOString(),
    retire_at: null,
  }
}

const info = (k: { kid: string; public_key: string; created_at: string; retire_at: string | null }): PublicKeyInfo => ({
  kid: k.kid,
  algorithm: 'Ed25519',
  public_key: k.public_key,
  created_at: k.created_at,
  retire_at: k.retire_at,
})

async function storeKey(db: Queryable, master: Buffer, key: StoredKey): Promise<boolean> {
  return insertSigningKey(db, { ...key, private_key_sealed: seal(master, licenseKeySealName(key.kid), key.private_key) })
}

/**
 * Makes sure the database has the keys a start needs: an older install's DATA_DIR keyring is
 * imported (each kid once: machines that each had their own file all keep their files valid), and
 * unless a key is pinned, one key that signs exists. Processes starting at once make one key.
 * Answers the kids imported now.
 */
async function prepareKeys(db: Db, master: Buffer, dataDir: string | undefined, pinned: boolean): Promise<string[]> {
  const legacy = dataDir ? join(dataDir, LEGACY_KEYRING_FILE) : null
  const fileKeys = legacy && existsSync(legacy) ? (JSON.parse(readFileSync(legacy, 'utf8')) as { keys: StoredKey[] }).keys : []
  await checkMasterKey(db, master)
  return db.transaction(async (tx) => {
    await lockSigningKeys(tx)
    const imported: string[] = []
    for (const key of fileKeys) if (await storeKey(tx, master, key)) imported.push(key.kid)
    if (!pinned && !(await hasLiveSigningKey(tx, new Date()))) await storeKey(tx, master, newKey())
    return imported
  })
}

interface LoadedKey {
  info: PublicKeyInfo
  sealed: string
  privateKey: KeyObject
}

/**
 * The database keyring of one process. `dataDir` names an older install's folder whose keyring
 * file is imported; `refreshMs` (0: never) the background re-read; `log` hears of imports and of
 * refreshes that fail (the keys in memory keep serving).
 */
export async function dbKeyring(opts: {
  db: Db
  masterKey: Buffer
  pinnedPem?: string
  dataDir?: string
  refreshMs?: number
  log?: Pick<Logger, 'info' | 'warn'>
}): Promise<Keyring> {
  const { db, masterKey } = opts
  const pinned: LoadedKey | null = opts.pinnedPem
    ? (() => {
        const priv = createPrivateKey(opts.pinnedPem)
        const pub = createPublicKey(priv).export({ type: 'spki', format: 'pem' }).toString()
        return {
          info: info({ kid: `pinned-${sha8(pub)}`, public_key: pub, created_at: new Date(0).toISOString(), retire_at: null }),
          sealed: '',
          privateKey: priv,
        }
      })()
    : null
  const imported = await prepareKeys(db, masterKey, opts.dataDir, !!pinned)
  if (imported.length > 0) {
    opts.log?.info(
      { kids: imported, dataDir: opts.dataDir },
      `imported ${imported.length} license signing key(s) from DATA_DIR/${LEGACY_KEYRING_FILE} into the database (sealed); the file is no longer read`,
    )
  }

  let keys: LoadedKey[] = []
  const load = async () => {
    const known = new Map(keys.map((k) => [k.info.kid, k]))
    keys = (await listSigningKeys(db)).map((row) => {
      const was = known.get(row.kid)
      const meta = info({
        kid: row.kid,
        public_key: row.public_key,
        created_at: new Date(row.created_at).toISOString(),
        retire_at: row.retire_at ? new Date(row.retire_at).toISOString() : null,
      })
      // a key already open is not opened again: only its retirement may have changed
      if (was && was.sealed === row.private_key_sealed) return { ...was, info: meta }
      return {
        info: meta,
        sealed: row.private_key_sealed,
        privateKey: createPrivateKey(unseal(masterKey, licenseKeySealName(row.kid), row.private_key_sealed)),
      }
    })
  }
  await load()

  function signer(): LoadedKey {
    if (pinned) return pinned
    const now = Date.now()
    const live = keys.filter((k) => !k.info.retire_at || new Date(k.info.retire_at).getTime() > now)
    const key = live[live.length - 1]
    // the refresh makes a key when none signs; until it has, activation answers the error
    if (!key) throw new Error('No license signing key is live: run license:keys rotate')
    return key
  }

  let refreshing: Promise<void> | null = null
  const refresh = () =>
    (refreshing ??= (async () => {
      try {
        if (!pinned && !keys.some((k) => !k.info.retire_at || new Date(k.info.retire_at).getTime() > Date.now()))
          await prepareKeys(db, masterKey, undefined, false)
        await load()
      } finally {
        refreshing = null
      }
    })())
  const timer =
    opts.refreshMs && opts.refreshMs > 0
      ? setInterval(() => {
          refresh().catch((err: unknown) => opts.log?.warn({ err }, 'the license keyring could not be read again; the keys in memory keep signing'))
        }, opts.refreshMs)
      : null
  timer?.unref()
  // on PostgreSQL a change announced by another process is read at once; the poll stays for a lost connection (and PGlite)
  let stopListening: (() => Promise<void>) | null = null
  if (timer && db.listen) {
    stopListening = await db
      .listen(KEYRING_CHANNEL, () => {
        refresh().catch((err: unknown) => opts.log?.warn({ err }, 'the license keyring could not be read again; the keys in memory keep signing'))
      })
      .catch((err: unknown) => {
        opts.log?.warn({ err }, 'the keyring cannot listen for changes; it reads them by polling')
        return null
      })
  }

  return {
    sign(payload) {
      const key = signer()
      return signLicenseFile({ ...payload, kid: key.info.kid }, key.info.kid, key.privateKey)
    },
    publicKeys: () => [...(pinned ? [pinned.info] : []), ...keys.map((k) => k.info)],
    async rotate() {
      const key = newKey()
      await storeKey(db, masterKey, key)
      await notifyKeyringChanged(db, key.kid)
      await load()
      return info(key)
    },
    async retire(kid, at) {
      if (!(await setSigningKeyRetirement(db, kid, at))) throw new Error(`No key ${kid}`)
      await notifyKeyringChanged(db, kid)
      await load()
      return keys.find((k) => k.info.kid === kid)!.info
    },
    refresh,
    async close() {
      if (timer) clearInterval(timer)
      await stopListening?.()
    },
  }
}

function sha8(text: string) {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0
  return h.toString(16).padStart(8, '0')
}

export function signLicenseFile(payload: LicenseFilePayload, kid: string, privateKey: KeyObject): string {
  const header = `${LICENSE_FILE_HEADER} ${kid}`
  const body = encodeBase64(JSON.stringify(payload))
  const signature = sign(null, Buffer.from(`${header}\n${body}`), privateKey).toString('base64')
  return `${header}\n${body}\n${signature}\n`
}

export type VerifyResult =
  | { ok: true; file: ParsedLicenseFile }
  | { ok: false; reason: 'malformed' | 'unknown_key' | 'retired_key' | 'bad_signature' | 'expired'; file?: ParsedLicenseFile }

/** Offline check of a license file against a set of public keys. */
export function verifyLicenseFile(text: string, keys: PublicKeyInfo[], now = new Date()): VerifyResult {
  const file = parseLicenseFile(text)
  if (!file) return { ok: false, reason: 'malformed' }
  const key = keys.find((k) => k.kid === file.kid)
  if (!key) return { ok: false, reason: 'unknown_key', file }
  if (key.retire_at && new Date(key.retire_at).getTime() <= now.getTime()) return { ok: false, reason: 'retired_key', file }
  const good = verify(null, Buffer.from(file.signedText), createPublicKey(key.public_key), Buffer.from(file.signature, 'base64'))
  if (!good) return { ok: false, reason: 'bad_signature', file }
  if (file.payload.expires_at && new Date(file.payload.expires_at).getTime() <= now.getTime()) return { ok: false, reason: 'expired', file }
  return { ok: true, file }
}
