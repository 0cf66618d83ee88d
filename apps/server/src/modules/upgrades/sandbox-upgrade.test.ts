import { beforeEach, describe, expect, it } from 'vitest'
import { signedInClient, useTestApp } from '../../test/harness.ts'
import { HttpAgent } from '../../test/money.ts'
import { SANDBOX_DELIVER_JOB } from '../payments/sandbox.ts'

/** The upgrade's round trip through the sandbox's hosted checkout, over real HTTP (as payments/sandbox.test.ts pays). */
const t = useTestApp()
let base = ''

beforeEach(async () => {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`
})

const RETURN = { success_url: '/app/face-machine/license-purchase-success/?next=%2Fapp%2Fface-machine%2F', cancel_url: '/app/face-machine/dashboard/' }

async function upgradeOnSandbox() {
  const { client, email, password } = await signedInClient(t)
  const browser = new HttpAgent(base)
  expect((await browser.post('/api/client/signin/', { username: email, password })).status).toBe(200)
  const trial = (
    (await (await browser.post('/api/resource/create/', { count: 1, config: { product: 'fmc_subscribe', tag: 'FMC Trial' } })).json()) as {
      licenses: { id: number; token: string }[]
    }
  ).licenses[0]!
  await t.db.query("INSERT INTO devices (license_id, kind, fingerprint, name) VALUES ($1, 'online', 'fp-sbx', 'Cam')", [trial.id])
  const res = await browser.post(`/api/license/${trial.id}/upgrade/`, { payment_source: 'stripe', ...RETURN })
  expect(res.status).toBe(200)
  const opened = (await res.json()) as { status: string; payment: { provider_data: { session_id: string; url: string } } }
  expect(opened.status).toBe('pending')
  return { client, browser, trial, session: opened.payment.provider_data.session_id, url: opened.payment.provider_data.url }
}

async function deliverQueued() {
  await t.app.ctx.jobs.tick()
  const [job] = await t.db.query<{ status: string; last_error: string | null }>(
    'SELECT status, last_error FROM jobs WHERE name = $1 ORDER BY id DESC LIMIT 1',
    [SANDBOX_DELIVER_JOB],
  )
  expect(job!.status, job!.last_error ?? '').toBe('done')
}

const licenseOf = async (browser: HttpAgent, id: number) =>
  (await (await browser.get(`/api/license/${id}/`)).json()) as {
    status: number
    held_until: string | null
    token: string
    is_trial: boolean
    activations: unknown[]
    config: { upgraded?: boolean }
  }

describe('an upgrade paid on the sandbox checkout', () => {
  it('pay: the page shows the upgrade; the webhook upgrades the license in place with the same key and devices', async () => {
    const { browser, trial, session, url } = await upgradeOnSandbox()
    const page = await (await browser.get(new URL(url).pathname, 'text/html')).text()
    expect(page).toContain(`Face Machine: upgrade of the trial license #${trial.id}`)
    expect(page).toContain('$49.00')
    expect((await licenseOf(browser, trial.id)).status).toBe(2)

    const pay = await browser.post(`/api/sandbox/checkout/${session}/pay/`, {})
    expect(await pay.json()).toEqual({ redirect_url: `http://portal.test${RETURN.success_url}` })
    await deliverQueued()
    const after = await licenseOf(browser, trial.id)
    expect(after).toMatchObject({ status: 0, held_until: null, token: trial.token, is_trial: false, config: { upgraded: true } })
    expect(after.activations).toHaveLength(1)
  })

  it('cancel: the hold ends at once and the trial stays a trial', async () => {
    const { browser, trial, session } = await upgradeOnSandbox()
    const cancel = await browser.post(`/api/sandbox/checkout/${session}/cancel/`)
    expect(await cancel.json()).toEqual({ redirect_url: `http://portal.test${RETURN.cancel_url}` })
    await deliverQueued()
    expect(await licenseOf(browser, trial.id)).toMatchObject({ status: 0, held_until: null, is_trial: true })
  })
})
