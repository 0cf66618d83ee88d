import { createHash, createPrivateKey, createPublicKey, randomUUID, sign } from 'node:crypto'

/**
 * Single sign-on into the helpdesk and the cloud services (docs/sso.md): a short-lived JSON Web
 * Token signed with Ed25519 (JWS "EdDSA", RFC 8037) that the service verifies with our public key.
 * The key is SSO_SIGNING_KEY, else the one kept in the database for every instance (platform/secrets.ts).
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

export function createSsoSigner(opts: { pem: string; publicUrl: string }): SsoSigner {
  const key = createPrivateKey(opts.pem)
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

/** How long the helpdesk's id_token is good for: it goes straight back through the browser. */
export const ID_TOKEN_SECONDS = 300

export interface IdTokenClaims {
  /** the client's id */
  sub: string
  email: string
  given_name: string
  family_name: string
  /** the helpdesk's nonce, echoed */
  nonce: string
  /** the helpdesk's client id */
  aud: string
}

export interface RsaSigner {
  /** an RS256 id_token for `claims`, valid ID_TOKEN_SECONDS from `now` */
  idToken(claims: IdTokenClaims, now?: Date): string
  /** the public key to register at the helpdesk (SPKI PEM) */
  readonly publicKeyPem: string
  readonly kid: string
}

/**
 * The helpdesk's custom JWT sign-on (Freshworks accepts only RS256): an id_token signed with an RSA
 * key, SSO_RSA_SIGNING_KEY, else the one kept in the database beside the Ed25519 key for every
 * instance (platform/secrets.ts, docs/sso.md).
 */
export function createRsaSigner(opts: { pem: string; publicUrl: string }): RsaSigner {
  const key = createPrivateKey(opts.pem)
  // a configured key that is no RSA key stops the start, not the first sign-on
  if (key.asymmetricKeyType !== 'rsa') throw new Error('SSO_RSA_SIGNING_KEY must be an RSA key')
  const publicKeyPem = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString()
  const kid = `rsa-${createHash('sha256').update(publicKeyPem).digest('base64url').slice(0, 8)}`
  const issuer = opts.publicUrl + SSO_ISSUER_SUFFIX
  return {
    publicKeyPem,
    kid,
    idToken(claims, now = new Date()) {
      const iat = Math.floor(now.getTime() / 1000)
      const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))
      const payload = b64url(JSON.stringify({ iss: issuer, ...claims, iat, exp: iat + ID_TOKEN_SECONDS, jti: randomUUID() }))
      const signature = sign('sha256', Buffer.from(`${header}.${payload}`), key)
      return `${header}.${payload}.${b64url(signature)}`
    },
  }
}
