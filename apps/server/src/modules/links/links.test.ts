import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STAFF_FORM_PATHS } from '@portal/domain'
import { buildApp } from '../../app.ts'
import { ConfigError, loadConfig } from '../../platform/config.ts'
import { prefersHtml } from '../../platform/error-handler.ts'
import { testConfig, workerDb } from '../../test/harness.ts'
import { DEFAULT_EXTERNAL_LINKS } from './links.ts'

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
const INDEX = '<!doctype html><title>3DiVi Portal</title><div id="root"></div>'

let app: FastifyInstance
beforeAll(async () => {
  const webDist = mkdtempSync(join(tmpdir(), 'web-dist-'))
  writeFileSync(join(webDist, 'index.html'), INDEX)
  const config = testConfig({ EXTERNAL_LINKS: JSON.stringify({ face_sdk_docs: 'https://docs.example.com/face/', extra_page: 'https://example.org/x' }) })
  app = await buildApp({ config, db: await workerDb(), webDist })
  await app.ready()
})
afterAll(async () => app?.close())

describe('GET /external_resource/link/{name}/', () => {
  it('redirects both Face SDK docs links of the activation panel to their defaults', async () => {
    for (const name of ['face_sdk_docs_offline_license', 'face_sdk_docs_locking_to_a_usb_token'] as const) {
      const res = await app.inject({ url: `/external_resource/link/${name}/`, headers: { accept: BROWSER_ACCEPT } })
      expect(res.statusCode, name).toBe(302)
      expect(res.headers.location).toBe(DEFAULT_EXTERNAL_LINKS[name])
      expect(res.headers.location).toMatch(/^https:\/\/docs\.facesdk\.3divi\.com\//)
    }
  })

  it('takes addresses from EXTERNAL_LINKS over the defaults, and names it adds', async () => {
    expect((await app.inject({ url: '/external_resource/link/face_sdk_docs/' })).headers.location).toBe('https://docs.example.com/face/')
    expect((await app.inject({ url: '/external_resource/link/extra_page/' })).headers.location).toBe('https://example.org/x')
    expect((await app.inject({ url: '/external_resource/link/nuitrack_forum/' })).headers.location).toBe(DEFAULT_EXTERNAL_LINKS.nuitrack_forum)
  })

  it('an unknown name shows a browser the app (its not-found screen) with 404, never JSON', async () => {
    for (const name of ['x', 'constructor', '__proto__', 'hasOwnProperty']) {
      const res = await app.inject({ url: `/external_resource/link/${name}/`, headers: { accept: BROWSER_ACCEPT } })
      expect(res.statusCode, name).toBe(404)
      expect(res.headers['content-type']).toMatch(/^text\/html/)
      expect(res.body).toBe(INDEX)
    }
  })
})

describe('the not-found handler', () => {
  it('serves the app with 404 to any browser navigation outside the API', async () => {
    for (const url of ['/nothing/', '/external_resource/', '/marketing/other/?a=1', '/favicon-nothing.html']) {
      const res = await app.inject({ url, headers: { accept: BROWSER_ACCEPT } })
      expect(res.statusCode, url).toBe(404)
      expect(res.body, url).toBe(INDEX)
    }
  })

  it('keeps the JSON error for API paths, scripts and other methods', async () => {
    const api = await app.inject({ url: '/api/nothing/', headers: { accept: BROWSER_ACCEPT } })
    expect(api.statusCode).toBe(404)
    expect(api.json()).toMatchObject({ error_code: expect.any(String), error: 'Route GET /api/nothing/ not found' })
    const script = await app.inject({ url: '/nothing/', headers: { accept: 'application/json' } })
    expect(script.json()).toHaveProperty('error_code')
    expect((await app.inject({ url: '/nothing/' })).json()).toHaveProperty('error_code')
    const post = await app.inject({ method: 'POST', url: '/nothing/', headers: { accept: BROWSER_ACCEPT } })
    expect(post.json()).toHaveProperty('error_code')
  })

  it('judges Accept by quality, as a browser and fetch send it', () => {
    expect(prefersHtml(BROWSER_ACCEPT)).toBe(true)
    expect(prefersHtml('text/html')).toBe(true)
    expect(prefersHtml('*/*')).toBe(false)
    expect(prefersHtml(undefined)).toBe(false)
    expect(prefersHtml('application/json, text/plain, */*')).toBe(false)
    expect(prefersHtml('application/json;q=0.5, text/html')).toBe(true)
    expect(prefersHtml('text/html;q=0.1, application/json')).toBe(false)
    expect(prefersHtml('text/*, application/json;q=0.2')).toBe(true)
  })
})

describe('the marketing address of the custom Face SDK form', () => {
  it('leads to the staff form route the web app serves', async () => {
    const res = await app.inject({ url: '/marketing/face_sdk_custom/create/' })
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe(STAFF_FORM_PATHS.perpetual)
    const page = await app.inject({ url: res.headers.location!, headers: { accept: BROWSER_ACCEPT } })
    expect(page.statusCode).toBe(200)
    expect(page.body).toBe(INDEX)
  })
})

describe('EXTERNAL_LINKS', () => {
  const problems = (value: string) => {
    try {
      loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'cfg-')), EXTERNAL_LINKS: value })
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError)
      return (err as ConfigError).problems
    }
    return []
  }
  it('must be a JSON object of lowercase names to http(s) addresses', () => {
    expect(problems('{not json')).toEqual(['EXTERNAL_LINKS: must be a JSON object of link name to URL'])
    expect(problems('{"a":"javascript:alert(1)"}')[0]).toMatch(/^EXTERNAL_LINKS\.a: must be an http\(s\) URL/)
    expect(problems('{"Bad Name":"https://x.example"}')[0]).toMatch(/^EXTERNAL_LINKS/)
    expect(problems('[]')[0]).toMatch(/^EXTERNAL_LINKS/)
    expect(problems('{"ok_name":"https://x.example/"}')).toEqual([])
  })
})
