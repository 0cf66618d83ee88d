import { expect, it } from 'vitest'
import { runCommand } from '../../cli/commands.ts'
import { signedInClient, useTestApp } from '../../test/harness.ts'

const t = useTestApp()

it('grant, list groups, generate, rename, revoke', async () => {
  const { agent, email } = await signedInClient(t)
  const grant = await runCommand(t.db, ['licenses:grant', email, 'nuitrack_subscribe', '5', '--os-type', '1'])
  expect(grant.code).toBe(0)
  const groups = (await agent.get('/api/group/')).json().groups
  expect(groups).toHaveLength(1)
  expect(groups[0]).toMatchObject({ limit: 5, is_default: true, os_type: 1, total: 5 })
  const gen = await agent.post(`/api/group/${groups[0].id}/new-license/`, {})
  expect(gen.statusCode).toBe(200)
  const lic = gen.json()
  expect(lic).toMatchObject({ license_status: 'new', group_id: groups[0].id, type: 'nuitrack' })
  const renamed = await agent.post(`/api/license/${lic.id}/`, { title: '  Lobby kiosk ' })
  expect(renamed.json().title).toBe('Lobby kiosk')
  const list = (await agent.get('/api/license/')).json().licenses
  expect(list).toHaveLength(1)
  const split = await agent.post(`/api/group/${groups[0].id}/split/`, { title: 'Key A', limit: 3 })
  expect(split.statusCode).toBe(200)
  expect(split.json().source_group.limit).toBe(1)
  const resize = await agent.post(`/api/group/${split.json().dest_group.id}/resize/`, { limit: 4 })
  expect(resize.json()).toMatchObject({ group: { limit: 4 }, default_group: { limit: 0 } })
  const revoke = await agent.post(`/api/license/${lic.id}/release/`, {})
  expect(revoke.statusCode).toBe(200)
  expect(revoke.json().group.limit).toBe(1)
  expect((await agent.get(`/api/license/${lic.id}/`)).statusCode).toBe(404)
  expect((await agent.get(`/api/license/abc/`)).json().error_code).toBe('63f560db')
  const trial = await agent.post('/api/resource/create/', { count: 1, config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })
  expect(trial.statusCode).toBe(200)
  expect(trial.json().licenses[0]).toMatchObject({ type: 'face-machine', is_trial: true, subscription_status: 'none', dates: { days: 30 } })
})
