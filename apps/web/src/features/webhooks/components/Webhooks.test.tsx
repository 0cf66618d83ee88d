import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { WebhookDeliveryView, WebhookEndpointView } from '@portal/domain'
import { json, mockApi, renderApp, setLogged, signedInRoutes } from '../../../test/utils.tsx'
import { unlabelledColumns } from '../../../test/card-table.ts'

const SECRET = 'whsec_' + 'k'.repeat(43)
const endpoint = (over: Partial<WebhookEndpointView> = {}): WebhookEndpointView => ({
  id: 4,
  url: 'https://example.com/hooks',
  events: ['device.activated'],
  secret: SECRET,
  created_at: '2026-12-01T10:00:00.000Z',
  ...over,
})
const delivery = (over: Partial<WebhookDeliveryView> = {}): WebhookDeliveryView => ({
  id: 1,
  endpoint_id: 4,
  url: 'https://example.com/hooks',
  event: 'device.activated',
  status: 'delivered',
  attempts: 1,
  last_response_code: 200,
  created_at: '2026-12-05T10:00:00.000Z',
  last_attempt_at: '2026-12-05T10:00:02.000Z',
  ...over,
})
// the account screen is a lazy route: its first render waits for its chunks to load
const panel = () => screen.findByRole('region', { name: 'Webhooks' }, { timeout: 15_000 })

describe('the webhooks panel', () => {
  it('adds an endpoint for the events chosen; a refused address shows on its input', async () => {
    setLogged()
    let endpoints: WebhookEndpointView[] = []
    let refuse = true
    const calls = mockApi({
      ...signedInRoutes(),
      'GET /api/account/webhooks/': () => json(200, { endpoints }),
      'POST /api/account/webhooks/': (c) => {
        if (refuse) return json(400, { error_code: '6a38afc1', error: 'The endpoint must be an https address of a public host', field: 'url' })
        endpoints = [endpoint({ ...(c.body as { url: string; events: WebhookEndpointView['events'] }) })]
        return json(201, { endpoint: endpoints[0] })
      },
    })
    renderApp('/app/account/')
    const region = await panel()
    expect(await within(region).findByText('No endpoints yet.')).toBeInTheDocument()
    expect(within(region).getByText('Nothing has been sent yet.')).toBeInTheDocument()
    const user = userEvent.setup()
    await user.click(within(region).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(region).findByText('Choose at least one event')).toBeInTheDocument()
    await user.type(within(region).getByLabelText('Endpoint URL'), 'https://10.0.0.1/hooks')
    await user.click(within(region).getByRole('checkbox', { name: 'A device is activated' }))
    await user.click(within(region).getByRole('checkbox', { name: 'A payment fails' }))
    await user.click(within(region).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(region).findByText('The endpoint must be an https address of a public host')).toBeInTheDocument()
    refuse = false
    await user.clear(within(region).getByLabelText('Endpoint URL'))
    await user.type(within(region).getByLabelText('Endpoint URL'), 'https://example.com/hooks')
    await user.click(within(region).getByRole('button', { name: 'Add endpoint' }))
    const card = await within(region).findByTestId('webhook-endpoint')
    expect(calls.filter((c) => c.method === 'POST').at(-1)!.body).toEqual({ url: 'https://example.com/hooks', events: ['device.activated', 'payment.failed'] })
    expect(card).toHaveTextContent('https://example.com/hooks')
    expect(card).toHaveTextContent('payment.failed')
    await user.click(within(card).getByRole('button', { name: 'Copy secret' }))
    expect(await navigator.clipboard.readText()).toBe(SECRET)
  })

  it('shows the delivery log and removes an endpoint after a confirmation', async () => {
    setLogged()
    let endpoints = [endpoint()]
    mockApi({
      ...signedInRoutes({
        deliveries: [delivery({ id: 2, status: 'pending', attempts: 2, last_response_code: 503 }), delivery()],
      }),
      'GET /api/account/webhooks/': () => json(200, { endpoints }),
      'POST /api/account/webhooks/:id/delete/': () => {
        endpoints = []
        return json(200, { status: 'ok' })
      },
    })
    renderApp('/app/account/')
    const region = await panel()
    const rows = await within(region).findAllByTestId('webhook-delivery')
    expect(rows[0]).toHaveTextContent('Retrying')
    expect(rows[0]).toHaveTextContent('503')
    expect(within(rows[0]!).getByText('2')).toBeInTheDocument()
    expect(rows[1]).toHaveTextContent('Delivered')
    expect(unlabelledColumns(within(region).getByRole('table'))).toEqual(['Event'])
    const user = userEvent.setup()
    await user.click(within(await within(region).findByTestId('webhook-endpoint')).getByRole('button', { name: 'Remove https://example.com/hooks' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove this endpoint?' })
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(within(region).queryByTestId('webhook-endpoint')).toBeNull())
    expect(within(region).getByText('No endpoints yet.')).toBeInTheDocument()
  })
})
