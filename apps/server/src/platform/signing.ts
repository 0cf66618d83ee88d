import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { LICENSE_FILE_HEADER, encodeBase64, parseLicenseFile, type LicenseFilePayload, type ParsedLicenseFile } from '@portal/domain'
import { randomToken } from './crypto.ts'

/**
 * License signing keys (Ed25519). The keyring is a JSON file in DATA_DIR; every key has a kid and
 * an optional retirement date. The newest key not yet retired signs; every key stays published
 * with its retirement date, so an SDK that holds the set accepts old files until their key retires.
 * LICENSE_SIGNING_KEY (a PKCS#8 PEM) pins one key instead, for several servers sharing a database.
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
  rotate(): StoredKey
  retire(kid: string, at: Date): StoredKey
}

export const keyringPath = (dataDir: string) => join(dataDir, 'license-keys.json')

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

export function fileKeyring(dataDir: string, pinnedPem?: string): Keyring {
  const path = keyringPath(dataDir)
  let cache: { mtimeMs: number; keys: StoredKey[] } | null = null

  const pinned: StoredKey | null = pinnedPem
    ? (() => {
        const priv = createPrivateKey(pinnedPem)
        const pub = createPublicKey(priv).export({ type: 'spki', format: 'pem' }).toString()
        return { kid: `pinned-${sha8(pub)}`, private_key: pinnedPem, public_key: pub, created_at: new Date(0).toISOString(), retire_at: null }
      })()
    : null

  function load(): StoredKey[] {
    if (!existsSync(path)) {
      save([newKey()])
    }
    const mtimeMs = statSync(path).mtimeMs
    if (!cache || cache.mtimeMs !== mtimeMs) cache = { mtimeMs, keys: JSON.parse(readFileSync(path, 'utf8')).keys as StoredKey[] }
    return cache.keys
  }

  function save(keys: StoredKey[]) {
    mkdirSync(dirname(path), { recursive: true })
    const tmp = `${path}.${process.pid}.tmp`
    writeFileSync(tmp, JSON.stringify({ keys }, null, 2), { mode: 0o600 })
    renameSync(tmp, path)
    cache = null
  }

  // a pinned key creates no keyring file: processes with separate DATA_DIRs then publish the same
  // list (a keyring file that exists, from before the key was pinned, stays published)
  const all = () => (pinned ? [pinned, ...(existsSync(path) ? load() : [])] : load())

  function signer(): StoredKey {
    if (pinned) return pinned
    const now = Date.now()
    const live = load().filter((k) => !k.retire_at || new Date(k.retire_at).getTime() > now)
    if (live.length === 0) {
      const fresh = newKey()
      save([...load(), fresh])
      return fresh
    }
    return live[live.length - 1]!
  }

  return {
    sign(payload) {
      const key = signer()
      return signLicenseFile({ ...payload, kid: key.kid }, key.kid, createPrivateKey(key.private_key))
    },
    publicKeys: () =>
      all().map((k) => ({ kid: k.kid, algorithm: 'Ed25519' as const, public_key: k.public_key, created_at: k.created_at, retire_at: k.retire_at })),
    rotate() {
      const key = newKey()
      save([...load(), key])
      return key
    },
    retire(kid, at) {
      const keys = load()
      const key = keys.find((k) => k.kid === kid)
      if (!key) throw new Error(`No key ${kid}`)
      key.retire_at = at.toISOString()
      save(keys)
      return key
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
