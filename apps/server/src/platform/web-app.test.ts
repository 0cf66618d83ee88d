import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { buildApp } from '../app.ts'
import { signedInClient, testConfig, useTestApp } from '../test/harness.ts'
import { COMPRESSIBLE, COMPRESS_THRESHOLD, IMMUTABLE_CACHE, uniqueTokens } from './web-app.ts'

const t = useTestApp()

const INDEX = '<!doctype html><title>portal</title><script type="module" src="/app/assets/index-abc123.js"></script>'
const SCRIPT = `export const answer = ${JSON.stringify('x'.repeat(4000))}\n`

/** A tiny build: index.html, a hashed script with its brotli and gzip siblings (marked so the test knows which was sent), and a favicon. */
function fakeDist() {
  const dist = mkdtempSync(join(tmpdir(), 'web-dist-'))
  mkdirSync(join(dist, 'assets'))
  writeFileSync(join(dist, 'index.html'), INDEX)
  writeFileSync(join(dist, 'assets/index-abc123.js'), SCRIPT)
  writeFileSync(join(dist, 'assets/index-abc123.js.br'), brotliCompressSync(`${SCRIPT}// br\n`))
  writeFileSync(join(dist, 'assets/index-abc123.js.gz'), gzipSync(`${SCRIPT}// gz\n`))
  // no siblings: compressed on the fly
  writeFileSync(join(dist, 'assets/plain-def456.js'), SCRIPT)
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  const old = new Date('2026-01-01T00:00:00Z')
  utimesSync(join(dist, 'index.html'), old, old)
  return dist
}

describe('the web app: precompressed files and cache policy', () => {
  let app: FastifyInstance
  // after the harness's beforeEach, which opens the worker's database
  beforeEach(async () => {
    app ??= await buildApp({ config: testConfig(), db: t.db, webDist: fakeDist(), runJobs: false })
  })
  afterAll(async () => app?.close())

  it('index.html, served for every /app/ path, is revalidated each time and answers 304 to its ETag', async () => {
    for (const url of ['/app/login/', '/app/nuitrack/dashboard/', '/app', '/app/index.html']) {
      const res = await app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['cache-control'], url).toBe('no-cache')
      expect(res.headers['etag'], url).toBeTruthy()
      expect(res.headers['last-modified'], url).toBeTruthy()
      expect(res.body, url).toBe(INDEX)
    }
    const first = await app.inject({ method: 'GET', url: '/app/login/' })
    expect(first.headers['last-modified']).toBe('Thu, 01 Jan 2026 00:00:00 GMT')
    const again = await app.inject({ method: 'GET', url: '/app/account/', headers: { 'if-none-match': String(first.headers['etag']) } })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    expect(again.headers['cache-control']).toBe('no-cache')
    const changed = await app.inject({ method: 'GET', url: '/app/account/', headers: { 'if-none-match': '"something-else"' } })
    expect(changed.statusCode).toBe(200)
  })

  it('an asset answers one Vary: Accept-Encoding and sets no cookie, whatever encoding is sent', async () => {
    for (const url of ['/app/assets/index-abc123.js', '/app/assets/plain-def456.js'])
      for (const encoding of [undefined, 'br', 'gzip', 'identity']) {
        const res = await app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} })
        expect(res.statusCode, `${url} ${encoding}`).toBe(200)
        expect(res.headers['vary'], `${url} ${encoding}`).toBe('Accept-Encoding')
        expect(res.headers['set-cookie'], `${url} ${encoding}`).toBeUndefined()
      }
    const onTheFly = await app.inject({ method: 'GET', url: '/app/assets/plain-def456.js', headers: { 'accept-encoding': 'br' } })
    expect(onTheFly.headers['content-encoding']).toBe('br')
    const page = await app.inject({ method: 'GET', url: '/app/login/' })
    expect(page.headers['set-cookie'], 'the page still hands out its CSRF token').toBeTruthy()
  })

  it('a content-hashed asset is cached for a year as immutable', async () => {
    const res = await app.inject({ method: 'GET', url: '/app/assets/index-abc123.js' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe(IMMUTABLE_CACHE)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/)
    // a file outside assets/ has no hash in its name: revalidated
    const icon = await app.inject({ method: 'GET', url: '/app/favicon.svg' })
    expect(icon.statusCode).toBe(200)
    expect(icon.headers['cache-control']).toBe('no-cache')
  })

  it('a client that accepts brotli gets the .br file, one that accepts gzip the .gz file, others the plain bytes', async () => {
    const br = await app.inject({ method: 'GET', url: '/app/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(String(br.headers['vary']).toLowerCase()).toContain('accept-encoding')
    expect(br.headers['content-type']).toMatch(/javascript/)
    expect(br.headers['cache-control']).toBe(IMMUTABLE_CACHE)
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(`${SCRIPT}// br\n`)

    const gz = await app.inject({ method: 'GET', url: '/app/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.rawPayload).toString()).toBe(`${SCRIPT}// gz\n`)

    const plain = await app.inject({ method: 'GET', url: '/app/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(SCRIPT)
    expect(String(plain.headers['vary']).toLowerCase()).toContain('accept-encoding')
  })

  it("a file the build does not have (an old release's chunk) is a 404, not the page in its place", async () => {
    const res = await app.inject({ method: 'GET', url: '/app/assets/index-gone99.js', headers: { accept: '*/*' } })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).not.toMatch(/html/)
  })
})

describe('compression of API answers', () => {
  it('JSON above the threshold is compressed for a client that asks, and plain for one that does not', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/openapi.json' })
    expect(plain.statusCode).toBe(200)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD)
    const spec = plain.json()

    const br = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': 'br' } })
    expect(br.headers['content-encoding']).toBe('br')
    expect(String(br.headers['vary']).toLowerCase()).toContain('accept-encoding')
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3)
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(spec)

    const gz = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip' } })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(spec)
  })

  it('a small answer goes as it is, and a compressed signed-in answer keeps its no-store policy', async () => {
    const small = await t.app.inject({ method: 'GET', url: '/api/health/', headers: { 'accept-encoding': 'br, gzip' } })
    expect(small.statusCode).toBe(200)
    expect(small.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD)
    expect(small.headers['content-encoding']).toBeUndefined()

    const { agent } = await signedInClient(t)
    const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const profile = await t.app.inject({ method: 'GET', url: '/api/client/', headers: { cookie, 'accept-encoding': 'gzip' } })
    expect(profile.statusCode).toBe(200)
    expect(profile.headers['cache-control']).toBe('no-store')
    const body = profile.headers['content-encoding'] === 'gzip' ? gunzipSync(profile.rawPayload).toString() : profile.body
    expect(JSON.parse(body)).toHaveProperty('client_info')
  })

  it('compresses text and JSON, never event streams or binary downloads', () => {
    for (const type of ['application/json; charset=utf-8', 'application/problem+json', 'text/html; charset=utf-8', 'text/css', 'image/svg+xml'])
      expect(COMPRESSIBLE.test(type), type).toBe(true)
    for (const type of ['text/event-stream', 'application/pdf', 'application/octet-stream', 'image/png']) expect(COMPRESSIBLE.test(type), type).toBe(false)
  })
})

describe('uniqueTokens', () => {
  it('names each header of a Vary once, whatever its case, keeping the first spelling', () => {
    expect(uniqueTokens('Accept-Encoding, accept-encoding')).toBe('Accept-Encoding')
    expect(uniqueTokens('Cookie,accept-encoding, Accept-Encoding ,COOKIE')).toBe('Cookie, accept-encoding')
    expect(uniqueTokens('')).toBe('')
  })
})
