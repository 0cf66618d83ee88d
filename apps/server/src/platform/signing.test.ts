import { generateKeyPairSync } from 'node:crypto'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fileKeyring, keyringPath, verifyLicenseFile } from './signing.ts'

const pem = () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
const payload = {
  license_id: 1,
  product: 'nuitrack_online',
  license_content: {},
  max_version: null,
  issued_at: new Date().toISOString(),
  license_expires_at: null,
  expires_at: null,
  lock: { type: 'no_bound' as const, value: null },
  device_id: null,
}

describe('a pinned license signing key', () => {
  it('is the only published key on every process, whatever their DATA_DIR, and makes no keyring file', () => {
    const key = pem()
    const [a, b] = [mkdtempSync(join(tmpdir(), 'keys-a-')), mkdtempSync(join(tmpdir(), 'keys-b-'))]
    const [ka, kb] = [fileKeyring(a, key), fileKeyring(b, key)]
    const file = ka.sign(payload)
    expect(ka.publicKeys()).toEqual(kb.publicKeys())
    expect(ka.publicKeys()).toHaveLength(1)
    expect(verifyLicenseFile(file, kb.publicKeys())).toMatchObject({ ok: true })
    expect(existsSync(keyringPath(a)) || existsSync(keyringPath(b))).toBe(false)
  })

  it('keeps publishing the keys of a keyring file made before the key was pinned', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-old-'))
    const old = fileKeyring(dir)
    const before = old.sign(payload)
    const pinned = fileKeyring(dir, pem())
    expect(pinned.publicKeys()).toHaveLength(2)
    expect(verifyLicenseFile(before, pinned.publicKeys())).toMatchObject({ ok: true })
  })
})
