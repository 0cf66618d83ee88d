import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ERRORS, type ActivityEvent } from '@portal/domain'
import { json, licenseView, mockApi, profile, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'
import { readText } from '../../../test/read-blob.ts'

configure({ asyncUtilTimeout: 5000 })
afterEach(() => vi.restoreAllMocks())

const event = (over: Partial<ActivityEvent>): ActivityEvent => ({
  id: 1,
  kind: 'created',
  license_id: 5,
  license_title: 'Kiosk',
  group_id: 9,
  details: {},
  created_at: '2026-11-22T13:05:00.000Z',
  actor: null,
  ...over,
})

const HISTORY: ActivityEvent[] = [
  event({ id: 4, kind: 'activated', details: { channel: 'request_file', serial: 'SN-7', sensor: 'RealSense D435' }, created_at: '2026-11-24T09:30:00.000Z' }),
  event({ id: 3, kind: 'renamed', details: { from: 'Nuitrack Trial #5', to: 'Kiosk' }, created_at: '2026-11-23T10:00:00.000Z' }),
  event({ id: 2, kind: 'created', details: { product: 'nuitrack_trial', origin: 'trial' } }),
]
const OTHER = event({ id: 9, kind: 'paid', license_id: null, license_title: null, details: { amount_cents: 32800, description: 'Nuitrack Pro' } })

const license = licenseView({ id: 5, title: 'Kiosk', config: { product: 'nuitrack_trial' } })
const info = '/app/nuitrack/dashboard/5/info/'
const historyRegion = () => screen.findByRole('region', { name: 'History' })

describe('the license history (info screen)', () => {
  it('lists what happened, newest first, in words with the date and time', async () => {
    setLogged()
    mockApi(signedInRoutes({ licenses: [license], history: [...HISTORY, OTHER] }))
    renderApp(info)
    const region = await historyRegion()
    const lines = await within(region).findAllByTestId('history-line')
    expect(lines.map((l) => l.dataset.kind)).toEqual(['activated', 'renamed', 'created'])
    expect(lines[0]).toHaveTextContent('Activated on device SN-7 (RealSense D435)')
    expect(lines[1]).toHaveTextContent('Renamed from “Nuitrack Trial #5” to “Kiosk”')
    expect(lines[2]).toHaveTextContent('Free trial started (Nuitrack Trial)')
    // MMM DD, YYYY plus the time (in the test's time zone)
    expect(within(lines[1]!).getByText(/^Nov 23, 2026, \d{1,2}:\d{2} (AM|PM)$/)).toBeInTheDocument()
  })

  it('an empty history says so', async () => {
    setLogged()
    mockApi(signedInRoutes({ licenses: [license] }))
    renderApp(info)
    expect(await within(await historyRegion()).findByText('Nothing has happened to this license yet.')).toBeInTheDocument()
  })

  it('a failed load says so and offers to try again', async () => {
    setLogged()
    let fail = true
    mockApi({
      ...signedInRoutes({ licenses: [license], history: HISTORY }),
      'GET /api/license/5/history/': () =>
        fail ? json(404, { error_code: ERRORS.not_found.code, error: ERRORS.not_found.message }) : json(200, { events: HISTORY }),
    })
    renderApp(info)
    const region = await historyRegion()
    expect(await within(region).findByRole('alert')).toHaveTextContent('The history could not be loaded.')
    fail = false
    await userEvent.setup().click(within(region).getByRole('button', { name: 'Try again' }))
    expect(await within(region).findAllByTestId('history-line')).toHaveLength(3)
  })

  it('a rename reads the history again', async () => {
    setLogged()
    let history = HISTORY.slice(1)
    let current = license
    const calls = mockApi({
      ...signedInRoutes({ licenses: [license] }),
      'GET /api/license/5/': () => json(200, current),
      'GET /api/license/5/history/': () => json(200, { events: history }),
      'POST /api/license/5/': (c) => {
        const title = (c.body as { title: string }).title
        history = [event({ id: 5, kind: 'renamed', details: { from: 'Kiosk', to: title }, created_at: '2026-11-25T10:00:00.000Z' }), ...history]
        current = { ...license, title }
        return json(200, current)
      },
    })
    renderApp(info)
    const region = await historyRegion()
    expect(await within(region).findAllByTestId('history-line')).toHaveLength(2)
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Edit title' }))
    const input = await screen.findByRole('textbox', { name: 'Title' })
    await user.clear(input)
    await user.type(input, 'Lobby{Enter}')
    await waitFor(() => expect(within(region).getAllByTestId('history-line')[0]).toHaveTextContent('Renamed from “Kiosk” to “Lobby”'))
    expect(calls.filter((c) => c.url.startsWith('/api/license/5/history/')).length).toBeGreaterThanOrEqual(2)
  })
})

describe('the account history', () => {
  it('lists every license’s lines with the license named; a personal account has no export', async () => {
    setLogged()
    mockApi(signedInRoutes({ history: [...HISTORY, OTHER] }))
    renderApp('/app/account/')
    const region = await screen.findByRole('region', { name: 'Activity history' })
    const lines = await within(region).findAllByTestId('history-line')
    expect(lines).toHaveLength(4)
    expect(lines[0]).toHaveTextContent('Kiosk')
    expect(lines[3]).toHaveTextContent('Paid $328.00: Nuitrack Pro')
    expect(within(region).queryByRole('button', { name: 'Export CSV' })).toBeNull()
  })

  it('says in words when a group key was made or resized, and a license a device got from it', async () => {
    setLogged()
    const keyLine = (over: Partial<ActivityEvent>) => event({ license_id: null, license_title: null, group_id: 21, ...over })
    mockApi(
      signedInRoutes({
        history: [
          event({ id: 13, kind: 'generated', details: { origin: 'group_key', group_title: 'Stores' } }),
          keyLine({ id: 12, kind: 'group_key_resized', details: { title: 'Stores', from: 2, to: 5 } }),
          keyLine({
            id: 11,
            kind: 'group_key_created',
            details: { title: 'Stores', size: 2, product: 'nuitrack_subscribe', product_title: 'Nuitrack subscription' },
          }),
        ],
      }),
    )
    renderApp('/app/account/')
    const region = await screen.findByRole('region', { name: 'Activity history' })
    const lines = await within(region).findAllByTestId('history-line')
    expect(lines[0]).toHaveTextContent('Generated from the group key “Stores” for a device that activated with it')
    expect(lines[1]).toHaveTextContent('Group key “Stores” resized from 2 to 5 available licenses')
    expect(lines[2]).toHaveTextContent('Group key “Stores” made with 2 Nuitrack subscription licenses')
  })

  it('a corporate account exports the CSV; more pages load on demand', async () => {
    setLogged()
    const page = (offset: number) => ({
      events: [event({ id: 100 - offset, kind: 'paused', details: {} })],
      total: 2,
      offset,
      limit: 50,
    })
    const calls = mockApi({
      ...signedInRoutes({ profile: profile({ options: { ...profile().client_info.options, corporate_member: true } }) }),
      'GET /api/account/history/': (c) => json(200, page(Number(new URL(c.url, 'http://x').searchParams.get('offset') ?? 0))),
      'GET /api/account/history/export/': () => new Response('date,event\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }),
    })
    const created = vi.fn((_: Blob | MediaSource) => 'blob:csv')
    URL.createObjectURL = created as typeof URL.createObjectURL
    URL.revokeObjectURL = vi.fn()
    const saved: string[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(`${this.download} ${this.href}`)
    })
    renderApp('/app/account/')
    const region = await screen.findByRole('region', { name: 'Activity history' })
    expect(await within(region).findAllByTestId('history-line')).toHaveLength(1)
    const user = userEvent.setup()
    await user.click(within(region).getByRole('button', { name: 'Show more (1 left)' }))
    await waitFor(() => expect(within(region).getAllByTestId('history-line')).toHaveLength(2))
    expect(within(region).queryByRole('button', { name: /Show more/ })).toBeNull()
    await user.click(within(region).getByRole('button', { name: 'Export CSV' }))
    await waitFor(() => expect(saved).toEqual(['activity-history.csv blob:csv']))
    expect(await readText(created.mock.calls[0]![0] as Blob)).toBe('date,event\r\n')
    expect(calls.some((c) => c.url === '/api/account/history/export/')).toBe(true)
  })
})
