import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseLicenseFile } from '@portal/domain'
import { workerDb } from '../test/harness.ts'
import { licenseFilePayload } from '../test/license-file.ts'
import { TEST_MASTER_KEY } from '../test/master-key.ts'
import { masterKeyBytes } from './secrets.ts'
import { dbKeyring, signLicenseFile, verifyLicenseFile } from './signing.ts'

const pem = () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
const masterKey = masterKeyBytes(TEST_MASTER_KEY)!
const tempDir = () => mkdtempSync(join(tmpdir(), 'keys-'))
const payload = licenseFilePayload({ product: 'nuitrack_online' })

describe('a pinned license signing key', () => {
  it('signs on every process, whatever their DATA_DIR, and all publish the same list', async () => {
    const db = await workerDb()
    const key = pem()
    const [ka, kb] = await Promise.all([
      dbKeyring({ db, masterKey, pinnedPem: key, dataDir: tempDir() }),
      dbKeyring({ db, masterKey, pinnedPem: key, dataDir: tempDir() }),
    ])
    const file = ka.sign(payload)
    expect(parseLicenseFile(file)!.kid).toMatch(/^pinned-/)
    expect(ka.publicKeys()).toEqual(kb.publicKeys())
    expect(ka.publicKeys()[0]!.kid).toBe(parseLicenseFile(file)!.kid)
    expect(verifyLicenseFile(file, kb.publicKeys())).toMatchObject({ ok: true })
  })

  it('keeps publishing the keys of a keyring file made before the key was pinned', async () => {
    const db = await workerDb()
    const dir = tempDir()
    const old = generateKeyPairSync('ed25519')
    const kid = `k20240101-${Date.now().toString(36)}`
    writeFileSync(
      join(dir, 'license-keys.json'),
      JSON.stringify({
        keys: [
          {
            kid,
            private_key: old.privateKey.export({ type: 'pkcs8', format: 'pem' }),
            public_key: old.publicKey.export({ type: 'spki', format: 'pem' }),
            created_at: '2024-01-01T00:00:00.000Z',
            retire_at: null,
          },
        ],
      }),
    )
    const before = signLicenseFile({ ...payload, kid }, kid, old.privateKey)
    const pinned = await dbKeyring({ db, masterKey, pinnedPem: pem(), dataDir: dir })
    expect(pinned.publicKeys()[0]!.kid).toMatch(/^pinned-/)
    expect(pinned.publicKeys().map((k) => k.kid)).toContain(kid)
    expect(verifyLicenseFile(before, pinned.publicKeys())).toMatchObject({ ok: true })
    expect(parseLicenseFile(pinned.sign(payload))!.kid).toMatch(/^pinned-/)
  })
})
