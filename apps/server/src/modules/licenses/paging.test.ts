import { describe, expect, it } from 'vitest'
import {
  ERRORS,
  LICENSE_STATES,
  PLATFORMS,
  PRODUCTS,
  pageOfList,
  platformOfProduct,
  productFilterValues,
  type LicensePageRequest,
  type LicenseView,
  type Platform,
} from '@portal/domain'
import { runCommand } from '../../cli/commands.ts'
import { credit } from '../../test/money.ts'
import { expectError, signedInClient, useTestApp, type Agent } from '../../test/harness.ts'

const t = useTestApp()
const DAY = 86_400_000

/** A small deterministic generator (mulberry32), so a failure names a seed that reproduces it. */
function rng(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * `n` licenses of every product (and one code the catalogue does not know) in every state the
 * derivations read: on hold or not, stopped, expired or not, activated by a date, a group key or a
 * live device (or only a released one), paused, tagged trials upgraded or not.
 */
async function generate(clientId: number, n: number, seed: number) {
  const r = rng(seed)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!
  const now = t.clock.now().getTime()
  const at = (choices: (number | null)[]) => {
    const c = pick(choices)
    return c === null ? null : new Date(now + c)
  }
  const products = [...PRODUCTS, 'mystery_product']
  const ids: number[] = []
  for (let i = 0; i < n; i++) {
    const product = pick(products)
    const config: Record<string, unknown> = { product }
    if (r() < 0.4) config.tag = pick(['Trial', '', 'FMC Trial'])
    if (r() < 0.3) config.upgraded = r() < 0.5
    if (r() < 0.3) config.paused = r() < 0.7
    const [row] = await t.db.query<{ id: number }>(
      `INSERT INTO licenses (client_id, type, product, config, status, held_until, expire_date, activation_date, group_key_used, token)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        clientId,
        platformOfProduct(product),
        product,
        JSON.stringify(config),
        r() < 0.15 ? 1 : 0,
        at([null, null, null, -2 * DAY, 3_600_000, 20 * DAY]),
        at([null, -40 * DAY, -DAY, 5 * DAY, 12 * DAY + 3_600_000, 400 * DAY]),
        at([null, null, -10 * DAY]),
        r() < 0.1,
        `PG-${seed}-${clientId}-${i}`,
      ],
    )
    ids.push(row!.id)
    const devices = pick([0, 0, 0, 1, 2])
    for (let d = 0; d < devices; d++) {
      await t.db.query(`INSERT INTO devices (license_id, kind, fingerprint, serial, released_at) VALUES ($1, 'online', $2, $3, $4)`, [
        row!.id,
        `fp-${row!.id}-${d}`,
        `SN-${d}`,
        r() < 0.4 ? new Date(now - DAY) : null,
      ])
    }
  }
  return ids
}

const query = (req: Partial<LicensePageRequest> & { type?: Platform }) => {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(req)) if (v !== undefined && v !== null) q.set(k === 'platform' ? 'type' : k, String(v))
  return `/api/license/?${q}`
}

async function wholeList(agent: Agent): Promise<LicenseView[]> {
  const res = await agent.get('/api/license/')
  expect(res.statusCode).toBe(200)
  return res.json().licenses
}

/** Every platform (and none), status and product filter, at two offsets: the server's page equals the whole list filtered in memory. */
async function expectPagesAgree(
  agent: Agent,
  combos: readonly (readonly [number, number, 'id' | '-id'])[] = [
    [0, 200, '-id'],
    [3, 7, '-id'],
    [2, 5, 'id'],
  ],
) {
  const whole = await wholeList(agent)
  let checked = 0
  for (const platform of [null, ...PLATFORMS]) {
    for (const status of ['all', ...LICENSE_STATES] as const) {
      for (const product of productFilterValues(platform ?? undefined)) {
        for (const [offset, limit, sort] of combos) {
          const req: LicensePageRequest = { platform, status, product, offset, limit, sort }
          const res = await agent.get(query(req))
          expect(res.statusCode, res.body).toBe(200)
          const got = res.json()
          const want = pageOfList(whole, req)
          const what = JSON.stringify(req)
          expect(
            got.licenses.map((l: LicenseView) => l.id),
            what,
          ).toEqual(want.licenses.map((l) => l.id))
          expect(got.licenses, what).toEqual(want.licenses)
          expect(got.total, what).toBe(want.total)
          expect(got.counts, what).toEqual(want.counts)
          checked++
        }
      }
    }
  }
  return { whole, checked }
}

describe('GET /api/license/ paged and filtered', () => {
  it(
    'every platform, status, product filter and offset equals the whole list filtered by the domain filters, at three business times',
    { timeout: 180_000 },
    async () => {
      const { agent, client } = await signedInClient(t)
      await generate(client.id, 90, 15)
      const { whole, checked } = await expectPagesAgree(agent)
      expect(checked).toBeGreaterThan(300)
      // the generated set covers every state and platform, so each filter above met rows
      expect(new Set(whole.map((l) => l.state))).toEqual(new Set(LICENSE_STATES))
      expect(new Set(whole.map((l) => l.type))).toEqual(new Set(PLATFORMS))
      // business time moves licenses across hold ends and expiries; the SQL derives them at the same clock
      t.clock.advance(2 * 3600)
      await expectPagesAgree(agent, [[1, 200, '-id']])
      t.clock.advance(30 * 86400)
      await expectPagesAgree(agent, [[0, 200, 'id']])
    },
  )

  it('another seed, with the defaults: offset alone pages 50, limit alone starts at 0, newest first', { timeout: 120_000 }, async () => {
    const { agent, client } = await signedInClient(t)
    const ids = await generate(client.id, 70, 4242)
    await expectPagesAgree(agent)
    const newestFirst = [...ids].sort((a, b) => b - a)
    expect((await agent.get('/api/license/?offset=10')).json().licenses.map((l: LicenseView) => l.id)).toEqual(newestFirst.slice(10, 60))
    expect((await agent.get('/api/license/?limit=3')).json().licenses.map((l: LicenseView) => l.id)).toEqual(newestFirst.slice(0, 3))
    const page = (await agent.get('/api/license/?offset=1000')).json()
    expect(page).toMatchObject({ licenses: [], total: 70 })
    // without paging parameters the answer keeps its shape; with `type` only, that platform's whole list
    expect(Object.keys((await agent.get('/api/license/')).json())).toEqual(['licenses'])
    const face = (await agent.get('/api/license/?type=face')).json()
    expect(Object.keys(face)).toEqual(['licenses'])
    expect(face.licenses.map((l: LicenseView) => l.id)).toEqual((await wholeList(agent)).filter((l) => l.type === 'face').map((l) => l.id))
  })

  it("is scoped to the client: another client's licenses never appear and the counts are each client's", async () => {
    const a = await signedInClient(t)
    const b = await signedInClient(t)
    const mine = await generate(a.client.id, 25, 7)
    const theirs = await generate(b.client.id, 30, 8)
    for (const [who, own, other] of [
      [a, mine, theirs],
      [b, theirs, mine],
    ] as const) {
      const page = (await who.agent.get('/api/license/?limit=200')).json()
      expect(page.licenses.map((l: LicenseView) => l.id).sort()).toEqual([...own].sort())
      expect(page.total).toBe(own.length)
      expect(Object.values(page.counts.status as Record<string, number>).reduce((x, y) => x + y, 0)).toBe(own.length)
      expect(page.licenses.some((l: LicenseView) => other.includes(l.id))).toBe(false)
      for (const platform of PLATFORMS) {
        const p = (await who.agent.get(`/api/license/?type=${platform}&limit=200`)).json()
        expect(p.licenses.every((l: LicenseView) => own.includes(l.id) && l.type === platform)).toBe(true)
      }
    }
  })

  it('refuses bad parameters with 400 validation_failed, naming the field', async () => {
    const { agent } = await signedInClient(t)
    for (const [q, field] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=ten', 'limit'],
      ['limit=', 'limit'],
      ['limit=1.5', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=1e3', 'offset'],
      ['status=expired', 'status'],
      ['status=', 'status'],
      ['product=pro', 'product'],
      ['type=face&product=old', 'product'],
      ['type=face-machine&product=custom', 'product'],
      ['type=nuitrack-cloud', 'type'],
      ['sort=title', 'sort'],
    ] as const) {
      expectError(await agent.get(`/api/license/?${q}`), 400, ERRORS.validation_failed.code, field)
    }
    // the largest page and the filters of the platform are fine
    expect((await agent.get('/api/license/?type=face&product=custom&limit=200&status=holded&sort=id')).statusCode).toBe(200)
    // a group's list is not paged
    for (const q of ['group=0', 'group=x', 'group=-1', 'group=1&limit=5', 'group=keys&status=all', 'group=keys&offset=0'])
      expectError(await agent.get(`/api/license/?${q}`), 400, ERRORS.validation_failed.code, 'group')
  })
})

describe('GET /api/license/ without paging', () => {
  it('answers the newest 200 only, however many the client holds', { timeout: 120_000 }, async () => {
    const { agent, client } = await signedInClient(t)
    await t.db.query(
      `INSERT INTO licenses (client_id, type, product, config, token)
       SELECT $1, 'nuitrack', 'nuitrack_trial', '{"product":"nuitrack_trial"}'::jsonb, 'CAP-' || $2 || '-' || i FROM generate_series(1, 205) i`,
      [client.id, String(client.id)],
    )
    const ids = (await t.db.query<{ id: number }>('SELECT id FROM licenses WHERE client_id = $1 ORDER BY id DESC', [client.id])).map((r) => Number(r.id))
    for (const url of ['/api/license/', '/api/license/?type=nuitrack']) {
      const res = await agent.get(url)
      expect(res.statusCode).toBe(200)
      expect(res.headers['cache-control']).toBe('no-store')
      const listed = (res.json() as { licenses: LicenseView[] }).licenses.map((l) => l.id)
      expect(listed).toEqual(ids.slice(0, 200))
    }
    // the older ones are a page away
    const older = (await agent.get('/api/license/?offset=200&limit=200')).json() as { licenses: LicenseView[]; total: number }
    expect(older.total).toBe(205)
    expect(older.licenses.map((l) => l.id)).toEqual(ids.slice(200))
  })

  it("answers one group's licenses, or those made from the group keys, and never another client's", async () => {
    const c = await signedInClient(t)
    expect((await runCommand(t.db, ['licenses:grant', c.email, 'nuitrack_subscribe', '6', '--os-type', '1'])).code).toBe(0)
    const source = (await c.agent.get('/api/group/')).json().groups.at(-1) as { id: number }
    const plain = (await c.agent.post(`/api/group/${source.id}/new-license/`, {})).json() as LicenseView
    const key = (await c.agent.post(`/api/group/${source.id}/split/`, { title: 'K', limit: 2 })).json().dest_group as { id: number }
    const fromKey = (await c.agent.post(`/api/group/${key.id}/new-license/`, {})).json() as LicenseView
    const ids = async (agent: Agent, q: string) => ((await agent.get(`/api/license/?${q}`)).json() as { licenses: LicenseView[] }).licenses.map((l) => l.id)
    expect(await ids(c.agent, `group=${source.id}`)).toEqual([plain.id])
    expect(await ids(c.agent, `group=${key.id}`)).toEqual([fromKey.id])
    expect(await ids(c.agent, 'group=keys')).toEqual([fromKey.id])
    expect(await ids(c.agent, `type=face&group=${key.id}`)).toEqual([])
    const stranger = await signedInClient(t)
    expect(await ids(stranger.agent, `group=${key.id}`)).toEqual([])
    expect(await ids(stranger.agent, 'group=keys')).toEqual([])
    // each filter has a tag of its own
    const tagOf = async (q: string) => (await getIf(c.agent, `/api/license/?${q}`)).headers.etag
    expect(new Set([await tagOf(''), await tagOf(`group=${source.id}`), await tagOf(`group=${key.id}`), await tagOf('group=keys')]).size).toBe(4)
    expect((await getIf(c.agent, `/api/license/?group=${key.id}`, await tagOf(`group=${source.id}`))).statusCode).toBe(200)
  })
})

/** A conditional GET, as a browser revalidating its cached copy sends it. */
const getIf = (agent: Agent, url: string, etag?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...(etag ? { 'if-none-match': etag } : {}) },
  })

describe('the strong ETag of the list', () => {
  async function owner(product = 'nuitrack_subscribe', count = 5) {
    const c = await signedInClient(t)
    expect((await runCommand(t.db, ['licenses:grant', c.email, product, String(count), '--os-type', '1'])).code).toBe(0)
    const groups = (await c.agent.get('/api/group/')).json().groups
    return { ...c, group: groups[groups.length - 1] }
  }

  /** The list's tag now; asserts the held one is no longer current (a 200 with a new tag and the change in it). */
  async function expectChanged(agent: Agent, url: string, held: string) {
    const res = await getIf(agent, url, held)
    expect(res.statusCode, `${url} after a change`).toBe(200)
    const etag = res.headers.etag as string
    expect(etag).not.toBe(held)
    expect((await getIf(agent, url, etag)).statusCode).toBe(304)
    return { etag, body: res.json() }
  }

  it('answers 304 without a body to a repeat, never stored, and reads only the version', async () => {
    const { agent, client } = await signedInClient(t)
    await generate(client.id, 12, 99)
    for (const url of ['/api/license/', '/api/license/?type=nuitrack', '/api/license/?type=face&status=all&limit=20']) {
      const first = await getIf(agent, url)
      expect(first.statusCode).toBe(200)
      const etag = first.headers.etag as string
      expect(etag).toMatch(/^"[^"]+"$/)
      expect(first.headers['cache-control']).toBe('no-store')
      const again = await getIf(agent, url, etag)
      expect(again.statusCode).toBe(304)
      expect(again.body).toBe('')
      expect(again.headers.etag).toBe(etag)
      expect(again.headers['cache-control']).toBe('no-store')
      // a list built afresh has the same tag (strong: the same bytes)
      const rebuilt = await getIf(agent, url)
      expect(rebuilt.headers.etag).toBe(etag)
      expect(rebuilt.body).toBe(first.body)
      // one of several held tags, weak or not, matches; a foreign or malformed one does not
      expect((await getIf(agent, url, `"x:1.0:x:x", W/${etag}`)).statusCode).toBe(304)
      expect((await getIf(agent, url, '"garbage"')).statusCode).toBe(200)
    }
    // a page's tag is no tag of another page or of the whole list
    const pageTag = (await getIf(agent, '/api/license/?limit=5')).headers.etag as string
    expect((await getIf(agent, '/api/license/?limit=6', pageTag)).statusCode).toBe(200)
    expect((await getIf(agent, '/api/license/', pageTag)).statusCode).toBe(200)
    // another client's tag names another client, even where the list versions are equal
    const other = await signedInClient(t)
    const mine = (await getIf(agent, '/api/license/')).headers.etag as string
    expect((await getIf(other.agent, '/api/license/', mine)).statusCode).toBe(200)
    const empty = await signedInClient(t)
    const emptyTag = (await getIf(empty.agent, '/api/license/')).headers.etag as string
    const another = await signedInClient(t)
    const anotherTag = (await getIf(another.agent, '/api/license/')).headers.etag as string
    expect(anotherTag.replace(/^"\d+/, '')).toBe(emptyTag.replace(/^"\d+/, ''))
    expect((await getIf(another.agent, '/api/license/', emptyTag)).statusCode).toBe(200)
  })

  it('a not-modified answer reads no list: one select of the version, no license or device query', async () => {
    const { agent, client } = await signedInClient(t)
    await generate(client.id, 30, 5)
    for (const url of ['/api/license/', '/api/license/?type=face&limit=20']) {
      const etag = (await getIf(agent, url)).headers.etag as string
      const seen: string[] = []
      const query = t.db.query.bind(t.db)
      t.db.query = ((sql: string, params?: unknown[]) => {
        seen.push(sql)
        return query(sql, params)
      }) as typeof t.db.query
      try {
        expect((await getIf(agent, url, etag)).statusCode).toBe(304)
      } finally {
        t.db.query = query
      }
      expect(seen.filter((sql) => sql.includes('license_list_versions'))).toHaveLength(1)
      expect(seen.filter((sql) => /\b(licenses|devices|license_groups|subscriptions)\b/.test(sql.replace(/license_list_versions/g, '')))).toEqual([])
    }
  })

  it('changes after every kind of change to the licenses, groups or devices, and when the clock crosses an expiry', async () => {
    const { agent, group, client } = await owner('nuitrack_subscribe', 5)
    const url = '/api/license/'
    let etag = (await getIf(agent, url)).headers.etag as string
    const step = async (what: string, act: () => Promise<unknown>) => {
      await act()
      const changed = await expectChanged(agent, url, etag)
      etag = changed.etag
      return changed.body as { licenses: LicenseView[] }
    }
    // generate from a group
    const lic = (await agent.post(`/api/group/${group.id}/new-license/`, {})).json()
    etag = (await expectChanged(agent, url, etag)).etag
    // rename
    const renamed = await step('rename', () => agent.post(`/api/license/${lic.id}/`, { title: 'Front desk' }))
    expect(renamed.licenses.find((l) => l.id === lic.id)!.title).toBe('Front desk')
    // activation by the device API, then the customer releases the device
    const activated = await step('activation', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/sdk/activate/', payload: { key: lic.token, fingerprint: 'fp-etag' } })
      expect(res.statusCode, res.body).toBe(200)
    })
    const device = activated.licenses.find((l) => l.id === lic.id)!.activations[0]!
    expect(device).toBeDefined()
    await step('device release', async () => expect((await agent.post(`/api/license/${lic.id}/devices/${device.id}/release/`, {})).statusCode).toBe(200))
    // revoke a second, never activated license
    const spare = (await agent.post(`/api/group/${group.id}/new-license/`, {})).json()
    etag = (await expectChanged(agent, url, etag)).etag
    const revoked = await step('revoke', () => agent.post(`/api/license/${spare.id}/release/`, {}))
    expect(revoked.licenses.some((l) => l.id === spare.id)).toBe(false)
    // a group key split and resized: only groups change, and the list shows the groups' titles
    const unlimited = await owner('nuitrack_unlimited', 10)
    let keyTag = (await getIf(unlimited.agent, url)).headers.etag as string
    const key = (await unlimited.agent.post(`/api/group/${unlimited.group.id}/split/`, { title: 'K', limit: 4 })).json().dest_group
    keyTag = (await expectChanged(unlimited.agent, url, keyTag)).etag
    expect((await unlimited.agent.post(`/api/group/${key.id}/resize/`, { limit: 6 })).statusCode).toBe(200)
    await expectChanged(unlimited.agent, url, keyTag)
    // pause a cloud subscription
    const trial = (await agent.post('/api/resource/create/', { count: 1, config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })).json().licenses[0]
    etag = (await expectChanged(agent, url, etag)).etag
    const paused = await step('pause', () => agent.post(`/api/license/${trial.id}/pause/`, {}))
    expect(paused.licenses.find((l) => l.id === trial.id)!.state).toBe('paused')
    // a purchase from the balance (its licenses land in a group)
    await credit(t.db, client.id, 100_000)
    await step('purchase', async () => {
      const res = await agent.post('/api/resource/buy/', {
        payment_source: 'balance',
        success_url: '/app/nuitrack/license-purchase-success/',
        cancel_url: '/app/nuitrack/basket/',
        items: [{ config: { product: 'nuitrack_ai_perpetual', os_type: 1 }, count: 1 }],
      })
      expect(res.statusCode, res.body).toBe(200)
    })
    // a change by SQL behind the services' back is caught by the triggers too
    await step('direct update', () => t.db.query('UPDATE licenses SET title = $2 WHERE id = $1', [lic.id, 'By hand']))

    // business time: nothing written, the clock moves across the trial's expiry
    const before = (await getIf(agent, url)).json().licenses.find((l: LicenseView) => l.id === trial.id)
    const expiresIn = new Date(before.expire_date).getTime() - t.clock.now().getTime()
    expect(expiresIn).toBeGreaterThan(0)
    expect((await getIf(agent, url, etag)).statusCode).toBe(304)
    t.clock.advance(expiresIn / 1000 + 60)
    const after = await expectChanged(agent, url, etag)
    expect(after.body.licenses.find((l: LicenseView) => l.id === trial.id).license_status).toBe('suspended')
    // and a page's tag moves with it (its counts changed)
    const pageUrl = '/api/license/?type=face-machine&limit=20'
    const pageTag = (await getIf(agent, pageUrl)).headers.etag as string
    t.clock.advance(-(expiresIn / 1000 + 120))
    const back = await getIf(agent, pageUrl, pageTag)
    expect(back.statusCode).toBe(200)
    expect(back.json().counts.status.suspended).toBe(0)
  })

  it('changes when the clock crosses a hold end and each whole day to an expiry (days shown)', async () => {
    const { agent, client } = await signedInClient(t)
    const now = t.clock.now().getTime()
    await t.db.query(
      `INSERT INTO licenses (client_id, type, product, config, held_until, expire_date, token)
       VALUES ($1, 'nuitrack', 'nuitrack_subscribe', '{"product":"nuitrack_subscribe"}', $2, $3, 'HOLD-1')`,
      [client.id, new Date(now + 600_000), new Date(now + 3.5 * DAY)],
    )
    const url = '/api/license/'
    const first = await getIf(agent, url)
    expect(first.json().licenses[0]).toMatchObject({ license_status: 'holded', dates: { days: 4 } })
    const etag = first.headers.etag as string
    t.clock.advance(300)
    expect((await getIf(agent, url, etag)).statusCode).toBe(304)
    t.clock.advance(301)
    const unheld = await getIf(agent, url, etag)
    expect(unheld.statusCode).toBe(200)
    expect(unheld.json().licenses[0]).toMatchObject({ license_status: 'new', dates: { days: 4 } })
    const second = unheld.headers.etag as string
    // 3.5 days to expiry shows 4 until 3 days are left, then 3
    t.clock.advance(0.5 * 86400 - 700)
    expect((await getIf(agent, url, second)).statusCode).toBe(304)
    t.clock.advance(200)
    const nextDay = await getIf(agent, url, second)
    expect(nextDay.statusCode).toBe(200)
    expect(nextDay.json().licenses[0].dates.days).toBe(3)
  })
})
