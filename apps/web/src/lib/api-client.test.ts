import { describe, expect, it } from 'vitest'
import { mockApi } from '../test/mock-api.ts'
import { api } from './api-client.ts'

const withTag = (body: unknown, etag: string) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ETag: etag } })

describe('a revalidated GET (a no-store answer with an ETag)', () => {
  it('sends the tag of the last answer it kept, and a 304 answers that answer again', async () => {
    let version = 1
    const calls = mockApi({
      'GET /api/revalidated/': (c) =>
        c.headers['If-None-Match'] === `"v${version}"` ? new Response(null, { status: 304 }) : withTag({ version }, `"v${version}"`),
    })
    expect(await api.get('/api/revalidated/', { revalidate: true })).toEqual({ version: 1 })
    expect(calls[0]!.headers['If-None-Match']).toBeUndefined()
    expect(await api.get('/api/revalidated/', { revalidate: true })).toEqual({ version: 1 })
    expect(calls[1]!.headers['If-None-Match']).toBe('"v1"')
    version = 2
    expect(await api.get('/api/revalidated/', { revalidate: true })).toEqual({ version: 2 })
    expect(await api.get('/api/revalidated/', { revalidate: true })).toEqual({ version: 2 })
    expect(calls[3]!.headers['If-None-Match']).toBe('"v2"')
    // another URL, or a call that does not ask for it, carries no tag
    expect(await api.get('/api/revalidated/', { params: { page: 2 }, revalidate: true })).toEqual({ version: 2 })
    expect(calls[4]!.headers['If-None-Match']).toBeUndefined()
    await api.get('/api/revalidated/')
    expect(calls[5]!.headers['If-None-Match']).toBeUndefined()
  })
})
