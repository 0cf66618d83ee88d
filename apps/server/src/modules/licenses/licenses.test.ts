import { describe, expect, it } from 'vitest'
import { runCommand } from '../../cli/commands.ts'
import { signedInClient, useTestApp, Agent } from '../../test/harness.ts'

const t = useTestApp()

async function owner(product = 'nuitrack_subscribe', count = 5, osType = '1') {
  const c = await signedInClient(t)
  const args = ['licenses:grant', c.email, product, String(count)]
  if (osType) args.push('--os-type', osType)
  expect((await runCommand(t.db, args)).code).toBe(0)
  const groups = (await c.agent.get('/api/group/')).json().groups
  return { ...c, group: groups[groups.length - 1] }
}

describe('GET /api/license/ and /api/group/', () => {
  it('answer 401 to an anonymous caller', async () => {
    const anon = new Agent(t.app)
    for (const url of ['/api/license/', '/api/group/', '/api/license/1/']) {
      const res = await anon.get(url)
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ error_code: '1920e203', error: 'Unauthorized user AnonymousUser' })
    }
  })

  it('show a generated license with every section-3 field and derived value', async () => {
    const { agent, group } = await owner()
    const lic = (await agent.post(`/api/group/${group.id}/new-license/`, {})).json()
    const got = (await agent.get(`/api/license/${lic.id}/`)).json()
    expect(got).toMatchObject({
      id: lic.id,
      type: 'nuitrack',
      title: `Nuitrack subscription #${lic.id}`,
      group: `Nuitrack subscription group #${group.id}`,
      group_id: group.id,
      status: 0,
      license_status: 'new',
      subscription_status: 'active',
      activations: [],
      is_fake: false,
      is_trial: false,
      is_subscription: true,
      from_custom_group: false,
      upgradeable: { toAI: null },
      config: { product: 'nuitrack_subscribe', os_type: 1 },
    })
    expect(got.token).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/)
    expect(got.dates.createdDate).toBe(got.created_date)
    expect(got.config.online).toEqual({ offline_timeout: 86400 })
  })
})

describe('license calls', () => {
  it('rename trims, refuses empty and over-long titles with d097efb8 and changes nothing', async () => {
    const { agent, group } = await owner()
    const lic = (await agent.post(`/api/group/${group.id}/new-license/`, { title: 'Front desk' })).json()
    expect(lic.title).toBe('Front desk')
    for (const title of ['', '   ', 'x'.repeat(257)]) {
      const res = await agent.post(`/api/license/${lic.id}/`, { title })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ error_code: 'd097efb8', field: 'title' })
    }
    expect((await agent.get(`/api/license/${lic.id}/`)).json().title).toBe('Front desk')
    expect((await agent.post(`/api/license/${lic.id}/`, { title: 'x'.repeat(256) })).statusCode).toBe(200)
  })

  it('revoke only a grouped license without activation; the group gets it back', async () => {
    const { agent, group } = await owner()
    const a = (await agent.post(`/api/group/${group.id}/new-license/`, {})).json()
    const b = (await agent.post(`/api/group/${group.id}/new-license/`, {})).json()
    await t.db.query('UPDATE licenses SET activation_date = now() WHERE id = $1', [b.id])
    const refused = await agent.post(`/api/license/${b.id}/release/`, {})
    expect(refused.statusCode).toBe(400)
    expect(refused.json().error_code).toBe('9febaea3')
    const ok = await agent.post(`/api/license/${a.id}/release/`, {})
    expect(ok.json()).toMatchObject({ status: 'ok', group: { id: group.id, limit: 4, used_licenses: 1 } })
    expect((await agent.get(`/api/license/${a.id}/`)).json().error_code).toBe('63f560db')
    expect((await agent.get('/api/license/')).json().licenses.map((l: { id: number }) => l.id)).toEqual([b.id])
  })

  it('pause and resume only cloud subscriptions; a cancelled one cannot resume (23504d45)', async () => {
    const { agent } = await signedInClient(t)
    const trial = (await agent.post('/api/resource/create/', { count: 1, config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })).json().licenses[0]
    const paused = await agent.post(`/api/license/${trial.id}/pause/`, {})
    expect(paused.json().config.paused).toBe(true)
    const resumed = await agent.post(`/api/facemachine/${trial.id}/activate-workspace/`, {})
    expect(resumed.json().config.paused).toBe(false)
    await t.db.query(`UPDATE licenses SET expire_date = now() - interval '1 day', config = config || '{"paused": true, "upgraded": true}' WHERE id = $1`, [
      trial.id,
    ])
    expect((await agent.get(`/api/license/${trial.id}/`)).json()).toMatchObject({ subscription_status: 'cancelled', license_status: 'suspended' })
    const late = await agent.post(`/api/license/${trial.id}/resume/`, {})
    expect(late.json().error_code).toBe('23504d45')

    const nt = (await agent.post('/api/resource/create/', { count: 1, config: { product: 'nuitrack_trial' } })).json().licenses[0]
    const refused = await agent.post(`/api/license/${nt.id}/pause/`, {})
    expect(refused.json().error_code).toBe('9febaea3')
  })

  it('an on-hold license refuses every action (55ddb7f6) and shows status 2', async () => {
    const { agent, group } = await owner()
    const lic = (await agent.post(`/api/group/${group.id}/new-license/`, {})).json()
    await t.db.query(`UPDATE licenses SET held_until = now() + interval '15 minutes' WHERE id = $1`, [lic.id])
    expect((await agent.get(`/api/license/${lic.id}/`)).json()).toMatchObject({ status: 2, license_status: 'holded' })
    for (const url of [`/api/license/${lic.id}/`, `/api/license/${lic.id}/release/`]) {
      const res = await agent.post(url, { title: 'x' })
      expect(res.statusCode).toBe(409)
      expect(res.json().error_code).toBe('55ddb7f6')
    }
    await t.db.query(`UPDATE licenses SET held_until = now() - interval '1 minute' WHERE id = $1`, [lic.id])
    expect((await agent.get(`/api/license/${lic.id}/`)).json()).toMatchObject({ status: 0, license_status: 'new' })
  })
})

describe('group calls', () => {
  it('split: from a default Nuitrack group only, 2 or more, not above the source', async () => {
    const { agent, group } = await owner('nuitrack_subscribe', 5)
    const cases: [unknown, number, string][] = [
      [{ title: 'K', limit: 0 }, 400, '3073f8c2'],
      [{ title: 'K', limit: 1 }, 400, '3073f8c2'],
      [{ title: 'K', limit: 6 }, 400, 'e9cff808'],
      [{ title: '', limit: 2 }, 400, 'd097efb8'],
    ]
    for (const [body, status, code] of cases) {
      const res = await agent.post(`/api/group/${group.id}/split/`, body)
      expect(res.statusCode).toBe(status)
      expect(res.json().error_code).toBe(code)
    }
    expect((await agent.post(`/api/group/${group.id}/split/`, { title: 'K', limit: 6 })).json().error).toBe('There are only 5 licenses available to add')
    const ok = (await agent.post(`/api/group/${group.id}/split/`, { title: 'Kiosks', limit: 5 })).json()
    expect(ok.dest_group).toMatchObject({ title: 'Kiosks', limit: 5, is_default: false, source_group_id: group.id })
    expect(ok.source_group).toMatchObject({ limit: 0, has_available_license: false })
    const empty = await agent.post(`/api/group/${group.id}/split/`, { title: 'K', limit: 2 })
    expect(empty.json().error_code).toBe('e9cff808')
    const fromKey = await agent.post(`/api/group/${ok.dest_group.id}/split/`, { title: 'K', limit: 2 })
    expect(fromKey.json().error_code).toBe('9febaea3')

    const face = await owner('face_online_subscribe', 5, '')
    const faceSplit = await face.agent.post(`/api/group/${face.group.id}/split/`, { title: 'K', limit: 2 })
    expect(faceSplit.json().error_code).toBe('9febaea3')
  })

  it('resize: 1 up to own plus source limit; the difference moves to or from the source', async () => {
    const { agent, group } = await owner('nuitrack_unlimited', 10)
    const key = (await agent.post(`/api/group/${group.id}/split/`, { title: 'K', limit: 4 })).json().dest_group
    const over = await agent.post(`/api/group/${key.id}/resize/`, { limit: 11 })
    expect(over.json()).toMatchObject({ error_code: 'fe501c38' })
    expect((await agent.post(`/api/group/${key.id}/resize/`, { limit: 0 })).json().error_code).toBe('3073f8c2')
    expect((await agent.post(`/api/group/${key.id}/resize/`, { limit: 10 })).json()).toMatchObject({ group: { limit: 10 }, default_group: { limit: 0 } })
    expect((await agent.post(`/api/group/${key.id}/resize/`, { limit: 1 })).json()).toMatchObject({ group: { limit: 1 }, default_group: { limit: 9 } })
    expect((await agent.post(`/api/group/${group.id}/resize/`, { limit: 3 })).json().error_code).toBe('9febaea3')
  })

  it('rename a group and generate from a key; a key without licenses refuses (1b5b8c37)', async () => {
    const { agent, group } = await owner('nuitrack_subscribe', 2)
    expect((await agent.post(`/api/group/${group.id}/`, { title: ' Lab ' })).json().group.title).toBe('Lab')
    expect((await agent.post(`/api/group/${group.id}/`, { title: '' })).json().error_code).toBe('d097efb8')
    const key = (await agent.post(`/api/group/${group.id}/split/`, { title: 'K', limit: 2 })).json().dest_group
    const lic = (await agent.post(`/api/group/${key.id}/new-license/`, { title: 'From key' })).json()
    expect(lic).toMatchObject({ group_id: key.id, from_custom_group: true, group: 'K' })
    await agent.post(`/api/group/${key.id}/new-license/`, {})
    const none = await agent.post(`/api/group/${key.id}/new-license/`, {})
    expect(none.statusCode).toBe(409)
    expect(none.json().error_code).toBe('1b5b8c37')
  })

  it('the 10-unactivated rule refuses the 11th generated license (50484dd7)', async () => {
    const { agent, group } = await owner('nuitrack_subscribe', 12)
    for (let i = 0; i < 10; i++) expect((await agent.post(`/api/group/${group.id}/new-license/`, {})).statusCode).toBe(200)
    const res = await agent.post(`/api/group/${group.id}/new-license/`, {})
    expect(res.json().error_code).toBe('50484dd7')
    expect((await agent.get('/api/group/')).json().groups[0].limit).toBe(2)
  })
})

describe('trials and staff licenses', () => {
  it('grants each free trial once and refuses paid products (ae5daa91)', async () => {
    const { agent } = await signedInClient(t)
    const na = await agent.post('/api/resource/create/', { count: 1, config: { product: 'na_subscribe', tag: 'NA Trial' } })
    expect(na.json().licenses[0]).toMatchObject({ type: 'nuitrack-analytics', is_trial: true, dates: { days: 7 }, config: { plan_id: 4 } })
    expect((await agent.post('/api/resource/create/', { count: 1, config: { product: 'na_subscribe', tag: 'NA Trial' } })).json().error_code).toBe('153b99a1')
    for (const body of [
      { count: 1, config: { product: 'nuitrack_ai_perpetual' } },
      { count: 1, config: { product: 'fmc_subscribe' } },
      { count: 2, config: { product: 'nuitrack_trial' } },
    ]) {
      expect((await agent.post('/api/resource/create/', body)).json().error_code).toBe('ae5daa91')
    }
  })

  it('custom licenses are for staff only and land with the client by e-mail', async () => {
    const client = await signedInClient(t)
    const staff = await signedInClient(t)
    const body = {
      title: 'Custom',
      count: 3,
      client_email: client.email,
      config: { product: 'face_online_custom', license_expire_delta: 2592000, device_bound: false, max_version: '3.24', license_content: { matcher: 2 } },
      custom_tags: { allowed_platforms: 'linux-x86_64,windows-x86_64' },
    }
    const refused = await staff.agent.post('/api/resource/custom/create/', body)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error_code).toBe('737709af')
    await runCommand(t.db, ['staff:grant', staff.email])
    const ok = await staff.agent.post('/api/resource/custom/create/', body)
    expect(ok.statusCode).toBe(200)
    expect(ok.json().licenses).toHaveLength(3)
    const mine = (await client.agent.get('/api/license/')).json().licenses
    expect(mine).toHaveLength(3)
    expect(mine[0]).toMatchObject({
      title: 'Custom',
      type: 'face',
      config: { max_version: '3.24', license_content: { matcher: 2 }, custom_tags: { allowed_platforms: 'linux-x86_64,windows-x86_64' } },
    })
    const unknown = await staff.agent.post('/api/resource/custom/create/', { ...body, client_email: 'nobody@example.com' })
    expect(unknown.json()).toMatchObject({ error_code: 'e1a53088', field: 'client_email' })
    const clash = await staff.agent.post('/api/resource/custom/create/', {
      ...body,
      config: { ...body.config, device_bound: true },
      custom_tags: { ios_app_id: 'com.x' },
    })
    expect(clash.statusCode).toBe(400)
    expect(clash.json().error_code).toBe('6a38afc1')
  })

  it('lists face versions and components', async () => {
    const { agent } = await signedInClient(t)
    const versions = (await agent.get('/api/versions/face/')).json().facesdk_versions
    expect(versions.filter((v: { is_default: boolean }) => v.is_default)).toHaveLength(1)
    expect((await agent.get('/api/components/face/')).json().components).toContain('matcher')
  })
})

describe('another client never sees or touches what is not theirs', () => {
  it('answers 63f560db on every license and group call with a foreign, malformed or missing id', async () => {
    const a = await owner()
    const lic = (await a.agent.post(`/api/group/${a.group.id}/new-license/`, {})).json()
    const b = await signedInClient(t)
    const calls: [string, string, unknown][] = [
      ['GET', `/api/license/${lic.id}/`, undefined],
      ['POST', `/api/license/${lic.id}/`, { title: 'mine now' }],
      ['POST', `/api/license/${lic.id}/release/`, {}],
      ['POST', `/api/license/${lic.id}/pause/`, {}],
      ['POST', `/api/license/${lic.id}/resume/`, {}],
      ['POST', `/api/license/${lic.id}/activate/offline/`, { hardware_key_serial: 'X' }],
      ['POST', `/api/group/${a.group.id}/`, { title: 'mine now' }],
      ['POST', `/api/group/${a.group.id}/split/`, { title: 'mine', limit: 2 }],
      ['POST', `/api/group/${a.group.id}/resize/`, { limit: 2 }],
      ['POST', `/api/group/${a.group.id}/new-license/`, {}],
      ['POST', `/api/group/${a.group.id}/activate/offline/`, { hardware_key_serial: 'X' }],
    ]
    for (const [method, url, body] of calls) {
      for (const target of [url, url.replace(/\/\d+\//, '/abc/'), url.replace(/\/\d+\//, '/999999/')]) {
        const res = method === 'GET' ? await b.agent.get(target) : await b.agent.post(target, body)
        expect(res.statusCode, `${method} ${target}`).toBe(404)
        expect(res.json().error_code, `${method} ${target}`).toBe('63f560db')
        expect(res.body).not.toContain(lic.token)
      }
    }
    expect((await b.agent.get('/api/license/')).json().licenses).toEqual([])
    expect((await b.agent.get('/api/group/')).json().groups).toEqual([])
    expect((await a.agent.get(`/api/license/${lic.id}/`)).json().title).not.toBe('mine now')
    expect((await a.agent.get('/api/group/')).json().groups[0]).toMatchObject({ limit: 4 })
  })
})
