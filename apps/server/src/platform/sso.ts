import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Single sign-on into the helpdesk and the cloud services (docs/sso.md): a short-lived JSON Web
 * Token signed with Ed25519 (JWS "EdDSA", RFC 8037) that the service verifies with our public key.
 * The key is SSO_SIGNING_KEY (every instance the same), else one generated once in DATA_DIR.
 */
export const SSO_TOKEN_SECONDS = 120
export const SSO_ISSUER_SUFFIX = '/api/service/'

export interface SsoClaims {
  /** the service the token is for (freshdesk, face-machine, nuitrack-analytics) */
  aud: string
  /** the client's id */
  sub: string
  email: string
  name: string
  license_id?: number
}

export interface SsoSigner {
  /** a token for `claims`, valid SSO_TOKEN_SECONDS from `now` */
  token(claims: SsoClaims, now?: Date): string
  /** the public key services verify with (SPKI PEM) */
  readonly publicKeyPem: string
  readonly kid: string
  readonly issuer: string
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url')

function loadKey(dataDir: string, pinnedPem: string | undefined): KeyObject {
  if (pinnedPem) return createPrivateKey(pinnedPem)
  const path = join(dataDir, 'sso-key.pem')
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true })
    const { privateKey } = generateKeyPairSync('ed25519')
    // wx: of two processes starting at once, one writes and the other reads what it wrote
    try {
      writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { flag: 'wx', mode: 0o600 })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  }
  return createPrivateKey(readFileSync(path, 'utf8'))
}

export function createSsoSigner(opts: { dataDir: string; pinnedPem?: string; publicUrl: string }): SsoSigner {
  const key = loadKey(opts.dataDir, opts.pinnedPem)
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('SSO_SIGNING_KEY must be an Ed25519 key')
  const publicKeyPem = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString()
  const kid = `sso-${createPublicKey(key).export({ format: 'jwk' }).x!.slice(0, 8)}`
  const issuer = opts.publicUrl + SSO_ISSUER_SUFFIX
  return {
    publicKeyPem,
    kid,
    issuer,
    token(claims, now = new Date()) {
      const iat = Math.floor(now.getTime() / 1000)
      const header = b64url(JSON.stringify({ alg: 'EdDSA', typ: 'JWT', kid }))
      const payload = b64url(JSON.stringify({ iss: issuer, ...claims, iat, exp: iat + SSO_TOKEN_SECONDS, jti: randomUUID() }))
      const signature = sign(null, Buffer.from(`${header}.${payload}`), key)
      return `${header}.${payload}.${b64url(signature)}`
    },
  }
}
