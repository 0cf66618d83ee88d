import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ERRORS, type LicenseView } from '@portal/domain'
import { json, licenseView, mockApi, renderApp, setLogged, signedInRoutes, licenseListAnswer } from '../../../test/utils.tsx'

/** A Face Machine trial as the API answers it; `paused` as the server derives it. */
const trial = (paused: boolean, over: Partial<LicenseView> = {}): LicenseView =>
  licenseView({
    type: 'face-machine',
    title: 'Face Machine #5',
    group: 'Face Machine group #1',
    config: { product: 'fmc_subscribe', tag: 'FMC Trial', paused },
    expire_date: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    dates: { createdDate: '2026-11-22T12:00:00.000Z', expireDate: null, activationDate: null, days: 30 },
    state: paused ? 'paused' : 'new',
    is_trial: true,
    is_subscription: true,
    ...over,
  })

function serve(initial: LicenseView) {
  let current = initial
  const calls = mockApi({
    ...signedInRoutes(),
    'POST /api/license/5/pause/': () => json(200, (current = trial(true))),
    'POST /api/license/5/resume/': () => json(200, (current = trial(false))),
    'GET /api/license/5/': () => json(200, current),
    'GET /api/license/': (c) => licenseListAnswer([current], c.url),
    'GET /api/face-machine/rates/': () => json(200, { plans: [] }),
    'POST /api/facemachine/5/activate-workspace/': () => json(400, { error_code: ERRORS.license_status.code, error: ERRORS.license_status.message }),
  })
  return { calls, posts: () => calls.filter((c) => c.method === 'POST').map((c) => c.url) }
}

const badge = () => within(screen.getByRole('heading', { level: 1 }).parentElement!).getByTestId('status-badge')

describe('pausing a cloud subscription', () => {
  it('a pause the server says is unavailable (9febaea3) shows the error and hides the action', async () => {
    setLogged()
    mockApi({
      ...signedInRoutes(),
      'GET /api/license/5/': () => json(200, trial(false)),
      'GET /api/license/': (c) => licenseListAnswer([trial(false)], c.url),
      'GET /api/face-machine/rates/': () => json(200, { plans: [] }),
      'POST /api/license/5/pause/': () => json(400, { error_code: ERRORS.action_unavailable.code, error: ERRORS.action_unavailable.message }),
    })
    renderApp('/app/face-machine/dashboard/5/info/')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Pause the trial' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Pause this trial?' })).getByRole('button', { name: 'Pause the trial' }))
    expect(await screen.findByText(ERRORS.action_unavailable.message)).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Pause the trial' })).toBeNull())
  })

  it('asks first, names the consequences, and cancelling (button or Escape) pauses nothing', async () => {
    setLogged()
    const { posts } = serve(trial(false))
    renderApp('/app/face-machine/dashboard/5/info/')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Pause the trial' }, { timeout: 5000 }))
    const dialog = await screen.findByRole('dialog', { name: 'Pause this trial?' })
    expect(dialog).toHaveTextContent('runs no transactions')
    expect(dialog).toHaveTextContent('Its data is erased 30 days after pausing')
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Keep it running' })).toHaveFocus())
    await user.click(within(dialog).getByRole('button', { name: 'Keep it running' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await user.click(screen.getByRole('button', { name: 'Pause the trial' }))
    await screen.findByRole('dialog')
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(posts()).toEqual([])
    expect(badge()).toHaveTextContent('New')
  })

  it('confirming pauses once; badge, banner and subscription say Paused, and the banner resumes', async () => {
    setLogged()
    const { posts } = serve(trial(false))
    renderApp('/app/face-machine/dashboard/5/info/')
    const user = userEvent.setup()
    expect(await screen.findByText(/days left in the trial/)).toBeInTheDocument()
    await user.click(await screen.findByRole('button', { name: 'Pause the trial' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Pause the trial' }))
    const banner = await screen.findByTestId('paused-banner')
    expect(banner).toHaveTextContent('This trial is paused')
    expect(posts()).toEqual(['/api/license/5/pause/'])
    // said as well as drawn, as cancel and reactivate are
    expect(await screen.findByText('Trial paused')).toBeInTheDocument()
    await waitFor(() => expect(badge()).toHaveTextContent('Paused'))
    expect(screen.queryByText(/days left in the trial/)).toBeNull()
    expect(screen.getByText('Subscription').parentElement).toHaveTextContent('Paused')
    // no second pause button while paused: the banner holds the way back
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(screen.queryByRole('button', { name: 'Pause the trial' })).toBeNull()
    await user.click(within(banner).getByRole('button', { name: 'Resume the trial' }))
    await waitFor(() => expect(screen.queryByTestId('paused-banner')).toBeNull())
    expect(posts()).toEqual(['/api/license/5/pause/', '/api/license/5/resume/'])
    expect(await screen.findByText('Trial resumed')).toBeInTheDocument()
  })

  it('a cancelled subscription shows the expired notice and renews through the activation dialog, not a basket (item 24)', async () => {
    setLogged()
    const { posts } = serve(
      trial(false, {
        is_trial: false,
        config: { product: 'fmc_subscribe' },
        subscription_status: 'cancelled',
        license_status: 'suspended',
        state: 'suspended',
      }),
    )
    renderApp('/app/face-machine/dashboard/5/info/')
    const block = await screen.findByRole('region', { name: 'Subscription' })
    expect(block).toHaveTextContent('The license has expired')
    expect(block).not.toHaveTextContent(/basket/i)
    expect(screen.queryByRole('button', { name: 'Pause the subscription' })).toBeNull()
    expect(screen.getByRole('link', { name: /Contact support/ })).toHaveAttribute('href', '/api/service/redirect/?service=face-machine&license_id=5')
    const user = userEvent.setup()
    await user.click(within(block).getByRole('button', { name: 'Renew' }))
    const dialog = await screen.findByRole('dialog', { name: 'Renew the subscription?' })
    await user.click(within(dialog).getByRole('button', { name: 'Renew' }))
    expect(await screen.findByRole('dialog', { name: 'Reactivate the subscription' })).toBeInTheDocument()
    expect(posts()).toEqual(['/api/facemachine/5/activate-workspace/'])
  })
})
