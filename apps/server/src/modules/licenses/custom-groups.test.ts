import { describe, expect, it } from 'vitest'
import { runCommand } from '../../cli/commands.ts'
import { count, expectError, signedInClient, useTestApp } from '../../test/harness.ts'

/** Lock interlocks in every field, group keys only from source groups, custom licenses keep their group. */
const t = useTestApp()

async function staffAndClient() {
  const client = await signedInClient(t)
  const staff = await signedInClient(t)
  await t.db.query('UPDATE clients SET is_staff = true WHERE id = $1', [staff.client.id])
  return { client, staff }
}

const order = (email: string, over: Record<string, unknown> = {}) => ({
  title: 'Custom',
  count: 2,
  client_email: email,
  config: {
    product: 'face_offline_custom',
    license_expire_delta: 31104000,
    device_bound: false,
    max_version: '3.24',
    license_content: { matcher: 3, detector: 1 },
    desktop_gpu_support: true,
    xml_config: '<a/>',
  },
  custom_tags: {},
  ...over,
})

describe('staff custom_tags_extra cannot carry a second lock (B14)', () => {
  it('refuses combinations across custom_tags, custom_tags_extra and device_bound with a coded 400 and creates nothing', async () => {
    const { client, staff } = await staffAndClient()
    const base = order(client.email)
    const bad = [
      { ...base, config: { ...base.config, device_bound: true }, custom_tags_extra: { hardware_key_serial: 'true' } },
      { ...base, custom_tags: { ios_app_id: 'com.x' }, custom_tags_extra: { android_app_id: 'com.y' } },
      { ...base, custom_tags: { allowed_platforms: 'linux-x86_64' }, custom_tags_extra: { hardware_key_serial: 'true' } },
      { ...base, custom_tags_extra: { hardware_key_serial: 'false' } },
      { ...base, custom_tags: { ios_app_id: 'com.x' }, custom_tags_extra: { ios_app_id: 'com.z' } },
    ]
    for (const body of bad) expectError(await staff.agent.post('/api/resource/custom/create/', body), 400, '6a38afc1', 'custom_tags_extra')
    expectError(
      await staff.agent.post('/api/resource/custom/create/', { ...base, config: { ...base.config, device_bound: true }, custom_tags: { ios_app_id: 'com.x' } }),
      400,
      '6a38afc1',
      'custom_tags',
    )
    expect(await count(t.db, 'licenses WHERE client_id = $1', [client.client.id])).toBe(0)
    expect(await count(t.db, 'license_groups WHERE client_id = $1', [client.client.id])).toBe(0)
  })

  it('a lock given in custom_tags_extra alone is stored as the lock it names', async () => {
    const { client, staff } = await staffAndClient()
    const res = await staff.agent.post('/api/resource/custom/create/', {
      ...order(client.email),
      custom_tags_extra: { hardware_key_serial: 'true', customer_ref: 'PO-7' },
    })
    expect(res.statusCode, res.body).toBe(200)
    const license = res.json().licenses[0]
    expect(license.config.custom_tags).toEqual({ hardware_key_serial: true, customer_ref: 'PO-7' })
    // and it binds: a request file cannot stand in for the token
    const refused = await client.agent.post(`/api/license/${license.id}/activate/offline/`, {
      data: Buffer.from('3DIVI-LICENSE-REQUEST v1\nserial=1\n').toString('base64'),
    })
    expectError(refused, 400, '9febaea3')
  })
})

describe('group keys come only from source groups (B15)', () => {
  async function grant(product: string, n: number, osType?: string) {
    const c = await signedInClient(t)
    const args = ['licenses:grant', c.email, product, String(n), ...(osType ? ['--os-type', osType] : [])]
    expect((await runCommand(t.db, args)).code).toBe(0)
    const groups = (await c.agent.get('/api/group/')).json().groups
    return { ...c, group: groups[groups.length - 1] }
  }

  it('refuses a split from a default Nuitrack group of another product (9febaea3) and changes nothing', async () => {
    for (const product of ['nuitrack_ai_perpetual', 'nuitrack_online', 'old', 'nuitrack_online_subscription_monthly']) {
      const { agent, group } = await grant(product, 5, '1')
      expect(group).toMatchObject({ type: 'nuitrack', is_default: true, limit: 5 })
      expectError(await agent.post(`/api/group/${group.id}/split/`, { title: 'K', limit: 2 }), 400, '9febaea3')
      expect((await agent.get('/api/group/')).json().groups).toEqual([expect.objectContaining({ id: group.id, limit: 5 })])
    }
  })

  it('allows it from nuitrack_subscribe and nuitrack_unlimited; the key keeps the os_type of its source', async () => {
    for (const [product, osType] of [
      ['nuitrack_subscribe', '0'],
      ['nuitrack_unlimited', '2'],
    ] as const) {
      const { agent, group } = await grant(product, 4, osType)
      const res = await agent.post(`/api/group/${group.id}/split/`, { title: 'Key', limit: 3 })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().dest_group).toMatchObject({ product, os_type: Number(osType), source_group_id: group.id, limit: 3 })
      expect(res.json().source_group.limit).toBe(1)
    }
  })

  it('a key resizes only against a source of its product and os_type', async () => {
    const { agent, client, group } = await grant('nuitrack_subscribe', 6, '1')
    const key = (await agent.post(`/api/group/${group.id}/split/`, { title: 'Key', limit: 2 })).json().dest_group
    expect((await agent.post(`/api/group/${key.id}/resize/`, { limit: 3 })).statusCode).toBe(200)
    // a source of another os_type (only a damaged row can say so) is not the key's source
    expect((await runCommand(t.db, ['licenses:grant', client.email, 'nuitrack_subscribe', '5', '--os-type', '2'])).code).toBe(0)
    const other = (await agent.get('/api/group/')).json().groups.find((g: { os_type: number; is_default: boolean }) => g.os_type === 2 && g.is_default)
    await t.db.query('UPDATE license_groups SET source_group_id = $2 WHERE id = $1', [key.id, other.id])
    expectError(await agent.post(`/api/group/${key.id}/resize/`, { limit: 4 }), 400, '9febaea3')
  })
})

describe('staff custom licenses keep their own group and config (B15)', () => {
  it('an order gets a group of its own; revoke then generate reproduces the custom license', async () => {
    const { client, staff } = await staffAndClient()
    // the client already has a default group of the same product, with its plain config
    expect((await runCommand(t.db, ['licenses:grant', client.email, 'face_offline_custom', '3'])).code).toBe(0)
    const res = await staff.agent.post('/api/resource/custom/create/', { ...order(client.email), custom_tags: { ios_app_id: 'com.vendor.app' } })
    expect(res.statusCode, res.body).toBe(200)
    const [a, b] = res.json().licenses as { id: number; group_id: number; config: Record<string, unknown> }[]
    expect(a!.group_id).toBe(b!.group_id)
    const groups = (await client.agent.get('/api/group/')).json().groups
    const own = groups.find((g: { id: number }) => g.id === a!.group_id)
    const plain = groups.find((g: { is_default: boolean }) => g.is_default)
    expect(own).toMatchObject({ is_default: false, source_group_id: null, product: 'face_offline_custom', title: 'Custom', limit: 0, used_licenses: 2 })
    expect(own.config).toEqual(a!.config)
    expect(plain).toMatchObject({ limit: 3, used_licenses: 0 })

    expect((await client.agent.post(`/api/license/${a!.id}/release/`, {})).json()).toMatchObject({ status: 'ok', group: { id: own.id, limit: 1 } })
    const again = await client.agent.post(`/api/group/${own.id}/new-license/`, {})
    expect(again.statusCode, again.body).toBe(200)
    expect(again.json()).toMatchObject({ group_id: own.id, from_custom_group: false })
    expect(again.json().config).toEqual(a!.config)
    expect(again.json().config).toMatchObject({
      license_content: { matcher: 3, detector: 1 },
      max_version: '3.24',
      desktop_gpu_support: true,
      xml_config: '<a/>',
      custom_tags: { ios_app_id: 'com.vendor.app' },
    })
    expect((await client.agent.get('/api/group/')).json().groups.find((g: { is_default: boolean }) => g.is_default)).toMatchObject({ limit: 3 })

    // a second order of the same product is another group
    const second = (await staff.agent.post('/api/resource/custom/create/', order(client.email, { count: 1 }))).json().licenses[0]
    expect(second.group_id).not.toBe(own.id)
  })

  it('a custom group is not a source of group keys', async () => {
    const { client, staff } = await staffAndClient()
    const body = order(client.email, { count: 3, config: { ...order(client.email).config, product: 'nuitrack_subscribe' } })
    const lic = (await staff.agent.post('/api/resource/custom/create/', body)).json().licenses[0]
    await client.agent.post(`/api/license/${lic.id}/release/`, {})
    const split = await client.agent.post(`/api/group/${lic.group_id}/split/`, { title: 'K', limit: 2 })
    expectError(split, 400, '9febaea3')
  })
})
