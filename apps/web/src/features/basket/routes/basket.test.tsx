import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ERRORS, type ProfileResponse } from '@portal/domain'
import { contactSales } from '../../../lib/contact-sales.ts'
import { fillBalanceStore } from '../../../lib/fill-balance.ts'
import { leave } from '../../../lib/leave.ts'
import {
  groupView,
  json,
  licenseView,
  mockApi,
  profile,
  renderApp,
  seededPrices,
  setLogged,
  signedInRoutes,
  type Call,
  licenseListAnswer,
} from '../../../test/utils.tsx'

const withPrices = (balance = 12.5): ProfileResponse => ({ ...profile({ balance }), prices: seededPrices() })

const basketWith = (platform: string, lines: { product: string; license_expire_delta: number | null; count: number }[]) =>
  sessionStorage.setItem(
    `portal.basket.${platform}`,
    JSON.stringify(
      Object.fromEntries(
        lines.map((l) => {
          const key = `${l.product}_${l.license_expire_delta ?? 0}`
          return [key, { key, config: { product: l.product, license_expire_delta: l.license_expire_delta }, count: l.count }]
        }),
      ),
    ),
  )

const total = () => screen.getByTestId('order-total').textContent

beforeEach(() => {
  sessionStorage.clear()
  localStorage.clear()
  setLogged()
})
afterEach(() => {
  // the contact-sales modal's store is a module singleton: a modal left open must not reach the next test
  contactSales.close()
  fillBalanceStore.close()
  sessionStorage.clear()
  localStorage.clear()
})

describe('license selection', () => {
  it('the dashboards of nuitrack, face and analytics have a Buy tile into the basket; face-machine has none', async () => {
    for (const platform of ['nuitrack', 'face', 'nuitrack-analytics'] as const) {
      mockApi(signedInRoutes({ profile: withPrices() }))
      const view = renderApp(`/app/${platform}/dashboard/`)
      // the tile, and the first steps' link where they show
      for (const link of await screen.findAllByRole('link', { name: 'Go to the basket' })) expect(link).toHaveAttribute('href', `/app/${platform}/basket/`)
      view.unmount()
    }
    mockApi(signedInRoutes({ profile: withPrices() }))
    renderApp('/app/face-machine/dashboard/')
    expect(await screen.findByRole('link', { name: /Open a ticket/ })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Go to the basket' })).toBeNull()
  })

  it('face-machine has no basket', async () => {
    mockApi(signedInRoutes({ profile: withPrices() }))
    renderApp('/app/face-machine/basket/license-selection/')
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument()
  })

  it('/basket/ goes to the Nuitrack comparison table: iOS for Pro only, AI extras, buy buttons to the subscriptions checkout', async () => {
    mockApi(signedInRoutes({ profile: withPrices() }))
    const app = renderApp('/app/nuitrack/basket/')
    const table = await screen.findByRole('table', { name: 'Nuitrack licenses compared' })
    expect(app.location().pathname).toBe('/app/nuitrack/basket/license-selection/')
    const row = (name: string) => within(table).getByRole('rowheader', { name }).closest('tr')!.querySelectorAll('td')
    const cells = (name: string) => [...row(name)].map((td) => td.textContent)
    expect(cells('iOS')).toEqual(['—No', '✓Yes', '—No'])
    expect(cells('Linux x64 / ARMv7')).toEqual(['✓Yes', '✓Yes', '✓Yes'])
    expect(cells('Windows x64 / x86')).toEqual(['✓Yes', '✓Yes', '✓Yes'])
    expect(cells('Android')).toEqual(['✓Yes', '✓Yes', '✓Yes'])
    expect(cells('Commercial use')).toEqual(['—No', '✓Yes', '✓Yes'])
    for (const extra of ['Improved tracking', 'Object detection', 'Pose recognition']) expect(cells(extra)).toEqual(['—No', '—No', '✓Yes'])
    for (const label of ['Session limit', 'Portability (move the license to another device)', 'Offline use']) expect(row(label)).toHaveLength(3)
    // the spec's facts: the trial's sessions, the skeleton, what each edition needs
    expect(cells('Session limit')).toEqual(['3 minutes a session, unlimited sessions', 'Unlimited', 'Unlimited'])
    expect(cells('Skeleton tracking: 19 joints, up to 6 persons')).toEqual(['✓Yes', '✓Yes', '✓Yes'])
    expect(cells('Hardware requirements')).toEqual(['CPU with AVX, 2 GB RAM', 'CPU with AVX, 2 GB RAM', 'Intel CPU, GTX 1050 Ti or better, 4 GB RAM'])
    // prices from the rows: Pro monthly $3.28 (old $4.99 struck), AI monthly $9.99
    expect(within(table).getByText('from $3.28 a month')).toBeInTheDocument()
    expect(within(table).getByText('$4.99')).toBeInTheDocument()
    expect(within(table).getByText('from $9.99 a month')).toBeInTheDocument()
    expect(within(table).getByRole('link', { name: 'Buy Pro' })).toHaveAttribute('href', '/app/nuitrack/basket/checkout/subscriptions/pro/')
    expect(within(table).getByRole('link', { name: 'Buy AI' })).toHaveAttribute('href', '/app/nuitrack/basket/checkout/subscriptions/ai/')
    expect(screen.getByRole('link', { name: /Back to the dashboard/ })).toHaveAttribute('href', '/app/nuitrack/dashboard/')
  })

  it('below 720 px the comparison is a card per plan: its price, its button under it, and what it gives', async () => {
    mockApi(signedInRoutes({ profile: withPrices() }))
    renderApp('/app/nuitrack/basket/license-selection/')
    const cards = await screen.findByTestId('plan-cards')
    expect(cards).toHaveAccessibleName('Nuitrack licenses compared')
    const card = (plan: string) => screen.getByTestId(`plan-card-${plan}`)
    expect(within(card('trial')).getByRole('heading', { name: 'Trial' })).toBeInTheDocument()
    expect(within(card('trial')).getByText('Free')).toBeInTheDocument()
    expect(within(card('trial')).getByRole('button', { name: 'Start the free trial' })).toBeEnabled()
    expect(within(card('pro')).getByText('from $3.28 a month')).toBeInTheDocument()
    expect(within(card('pro')).getByRole('link', { name: 'Buy Pro' })).toHaveAttribute('href', '/app/nuitrack/basket/checkout/subscriptions/pro/')
    expect(within(card('ai')).getByText('from $9.99 a month')).toBeInTheDocument()
    expect(within(card('ai')).getByRole('link', { name: 'Buy AI' })).toHaveAttribute('href', '/app/nuitrack/basket/checkout/subscriptions/ai/')
    // each feature is a term of the card's list with the plan's value
    const value = (plan: string, feature: string) => within(card(plan)).getByText(feature, { selector: 'dt' }).nextElementSibling!.textContent
    expect(['trial', 'pro', 'ai'].map((plan) => value(plan, 'iOS'))).toEqual(['—No', '✓Yes', '—No'])
    expect(['trial', 'pro', 'ai'].map((plan) => value(plan, 'Pose recognition'))).toEqual(['—No', '—No', '✓Yes'])
    expect(value('trial', 'Session limit')).toBe('3 minutes a session, unlimited sessions')
  })

  it('face plan cards price the all-in-one terms by months; analytics shows tier 4 and contact sales', async () => {
    mockApi(signedInRoutes({ profile: withPrices() }))
    renderApp('/app/face/basket/license-selection/')
    const allInOne = await screen.findByRole('region', { name: 'Face SDK all-in-one' })
    // $50 a month: 1, 3, 6 and 12 months
    for (const text of ['$50.00', '$150.00', '$300.00', '$600.00']) expect(within(allInOne).getByText(text)).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Face SDK subscription' })).toHaveTextContent('$30.00 a month')
    expect(screen.getByRole('link', { name: 'Build your subscription' })).toHaveAttribute('href', '/app/face/basket/license-selection/create/')
  })

  it('analytics: the cloud card is tier 4 of na_subscribe; on-premise goes to sales', async () => {
    mockApi(signedInRoutes({ profile: withPrices() }))
    renderApp('/app/nuitrack-analytics/basket/license-selection/')
    expect(await screen.findByRole('region', { name: 'Cloud' })).toHaveTextContent('$20.00 a month')
    fireEvent.click(screen.getByRole('button', { name: 'Contact sales' }))
    const modal = await screen.findByRole('dialog', { name: /Contact sales/ })
    expect(within(modal).getByRole('textbox', { name: /Details/ })).toHaveValue('We would like to run Nuitrack Analytics on our own servers.')
  })

  it('shows a loader while the prices load', async () => {
    mockApi({ ...signedInRoutes(), 'GET /api/client/': () => new Promise(() => {}) })
    renderApp('/app/face/basket/license-selection/')
    expect(await screen.findByLabelText('Loading prices')).toBeInTheDocument()
  })
})

describe('checkout', () => {
  it('the stepper: bounds 0 to 999, three digits, totals from the rows, 0 removes the line', async () => {
    basketWith('face', [{ product: 'face_online_subscribe', license_expire_delta: 2_592_000, count: 1 }])
    mockApi(signedInRoutes({ profile: withPrices() }))
    renderApp('/app/face/basket/checkout/')
    const qty = await screen.findByRole('textbox', { name: 'Quantity of Face SDK subscription' })
    await waitFor(() => expect(total()).toBe('$30.00'))
    fireEvent.click(screen.getByRole('button', { name: 'One more' }))
    await waitFor(() => expect(total()).toBe('$60.00'))

    fireEvent.change(qty, { target: { value: '12345' } })
    expect(qty).toHaveValue('123')
    fireEvent.change(qty, { target: { value: '999' } })
    fireEvent.blur(qty)
    await waitFor(() => expect(total()).toBe('$29,970.00'))
    expect(screen.getByRole('button', { name: 'One more' })).toBeDisabled()
    // a reload keeps the basket (session storage)
    expect(JSON.parse(sessionStorage.getItem('portal.basket.face')!)['face_online_subscribe_2592000'].count).toBe(999)

    // another product: the 6-month all-in-one at 6 × $50
    fireEvent.click(screen.getByRole('button', { name: /Add Face SDK all-in-one, 6 months/ }))
    await waitFor(() => expect(total()).toBe('$30,270.00'))

    fireEvent.change(qty, { target: { value: '0' } })
    fireEvent.blur(qty)
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Quantity of Face SDK subscription' })).toBeNull())
    expect(total()).toBe('$300.00')
    const six = screen.getByRole('textbox', { name: 'Quantity of Face SDK all-in-one, 6 months' })
    fireEvent.click(screen.getByRole('button', { name: 'One less' }))
    await waitFor(() => expect(six).not.toBeInTheDocument())
    expect(screen.getByText('Your basket is empty: add a product below.')).toBeInTheDocument()
    // continue is off when the total is about zero
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled()
    expect(total()).toBe('$0.00')
  })

  it('step 2: balance disabled when short, with the shortfall offered; steps show their status', async () => {
    basketWith('face', [{ product: 'face_online_subscribe', license_expire_delta: 2_592_000, count: 1 }])
    mockApi(signedInRoutes({ profile: withPrices(12.5) }))
    renderApp('/app/face/basket/checkout/')
    await waitFor(() => expect(total()).toBe('$30.00'))
    expect(screen.getByText('Active')).toBeInTheDocument()
    expect(screen.getByText('Awaiting')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByText('Completed')).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'From the balance' })).toBeDisabled()
    expect(screen.getByRole('radio', { name: /By card/ })).toBeChecked()
    expect(screen.getByText('Your balance is short of $17.50 for this order.')).toBeInTheDocument()
    // the fill-balance modal, starting at the minimum top-up ($20 covers the $17.50 short)
    fireEvent.click(screen.getByRole('button', { name: 'Fill the balance' }))
    const fill = await screen.findByRole('dialog', { name: 'Add funds' })
    expect(within(fill).getByRole('textbox', { name: /Amount, USD/ })).toHaveValue('20')
    fillBalanceStore.close()
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add funds' })).toBeNull())
    fireEvent.click(screen.getByRole('button', { name: 'Back to the order' }))
    expect(await screen.findByRole('textbox', { name: 'Quantity of Face SDK subscription' })).toBeInTheDocument()
  })

  it('pays from the balance: the body names the items, the success route follows', async () => {
    basketWith('face', [{ product: 'face_online_subscribe', license_expire_delta: 2_592_000, count: 2 }])
    let sent: Call | null = null
    mockApi({
      ...signedInRoutes({ profile: withPrices(100) }),
      'POST /api/resource/subscribe/': (c) => {
        sent = c
        return json(200, { status: 'paid', order_id: 9, transaction_id: 9, subscription_id: 9, amount: 60, payment: null })
      },
    })
    const app = renderApp('/app/face/basket/checkout/')
    await waitFor(() => expect(total()).toBe('$60.00'))
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByRole('radio', { name: 'From the balance' })).toBeChecked()
    fireEvent.click(screen.getByRole('button', { name: 'Pay $60.00' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/face/license-purchase-success/'))
    expect(sent!.body).toEqual({
      payment_source: 'balance',
      success_url: '/app/face/license-purchase-success/',
      cancel_url: '/app/face/basket/checkout/?payment=not-paid',
      items: [{ config: { product: 'face_online_subscribe', license_expire_delta: 2_592_000 }, count: 2 }],
    })
    expect(await screen.findByText('Your licenses will be added soon. This may take some time.')).toBeInTheDocument()
    // the purchase is done: the basket starts over
    expect(sessionStorage.getItem('portal.basket.face')).toBeNull()
  })

  it('pays by card: the browser goes to the provider checkout', async () => {
    const go = vi.spyOn(leave, 'to').mockImplementation(() => {})
    let sent: Call | null = null
    mockApi({
      ...signedInRoutes({ profile: withPrices(0) }),
      'POST /api/resource/buy/': (c) => {
        sent = c
        return json(200, {
          status: 'pending',
          order_id: 3,
          transaction_id: 3,
          amount: 299.9,
          payment: { provider: 'sandbox', provider_data: { session_id: 's1', url: '/api/payments/sandbox/s1/' } },
        })
      },
    })
    renderApp('/app/nuitrack/basket/checkout/subscriptions/ai/', { addLicenseType: 'ai' })
    fireEvent.click(await screen.findByRole('radio', { name: 'Nuitrack AI perpetual' }))
    await waitFor(() => expect(total()).toBe('$299.90'))
    // Nuitrack licenses come per os: Windows unless chosen
    expect(screen.getByRole('combobox', { name: 'Operating system' })).toHaveValue('0')
    fireEvent.change(screen.getByRole('combobox', { name: 'Operating system' }), { target: { value: '1' } })
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.click(await screen.findByRole('radio', { name: 'With PayPal' }))
    fireEvent.click(screen.getByRole('button', { name: 'Pay $299.90' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/payments/sandbox/s1/'))
    expect(sent!.body).toMatchObject({
      payment_source: 'paypal',
      cancel_url: '/app/nuitrack/basket/checkout/subscriptions/ai/?payment=not-paid',
      items: [{ config: { product: 'nuitrack_ai_perpetual', license_expire_delta: null, os_type: 1 }, count: 1 }],
    })
  })

  it('the subscriptions checkout offers annual terms only while the old prices are deprecated', async () => {
    const prices = seededPrices()
    mockApi(signedInRoutes({ profile: { ...withPrices(), prices: { ...prices, nuitrack: prices.nuitrack.map((p) => ({ ...p, deprecated: false })) } } }))
    const view = renderApp('/app/nuitrack/basket/checkout/subscriptions/pro/')
    expect(await screen.findByRole('radio', { name: 'Nuitrack Pro subscription' })).toBeChecked()
    expect(screen.queryByRole('radio', { name: 'Nuitrack Pro annual subscription' })).toBeNull()
    view.unmount()

    mockApi(signedInRoutes({ profile: withPrices() }))
    renderApp('/app/nuitrack/basket/checkout/subscriptions/pro/')
    expect(await screen.findByRole('radio', { name: 'Nuitrack Pro annual subscription' })).toBeInTheDocument()
    expect(screen.getByText('$39.90 a year')).toBeInTheDocument()
  })

  it('a subscription line says what it renews at and how often; a perpetual one says nothing of renewal', async () => {
    mockApi(signedInRoutes({ profile: withPrices() }))
    const view = renderApp('/app/nuitrack/basket/checkout/subscriptions/pro/')
    expect(await screen.findByRole('radio', { name: 'Nuitrack Pro subscription' })).toBeChecked()
    const note = await screen.findByTestId('renewal-note')
    expect(note.textContent).toMatch(/^Then \$[\d,.]+ a month until you cancel\.$/)
    // the last row is what is charged now: the first month
    expect(screen.getByText('Charged now')).toBeInTheDocument()
    expect(total()).toBe('$3.28')
    expect(screen.queryByTestId('promo-first-period')).toBeNull()
    view.unmount()

    mockApi(signedInRoutes({ profile: withPrices() }))
    renderApp('/app/nuitrack/basket/checkout/subscriptions/ai/', { addLicenseType: 'ai' })
    fireEvent.click(await screen.findByRole('radio', { name: 'Nuitrack AI perpetual' }))
    await waitFor(() => expect(total()).toBe('$299.90'))
    expect(screen.queryByTestId('renewal-note')).toBeNull()
  })

  it('insufficient funds (the balance moved meanwhile): the balance is read again and the shortfall offered', async () => {
    basketWith('face', [{ product: 'face_online_subscribe', license_expire_delta: 2_592_000, count: 1 }])
    let balance = 100
    mockApi({
      ...signedInRoutes(),
      'GET /api/client/': () => json(200, withPrices(balance)),
      'POST /api/resource/subscribe/': () => {
        balance = 10
        return json(409, { error_code: ERRORS.insufficient_funds.code, error: ERRORS.insufficient_funds.message })
      },
    })
    const app = renderApp('/app/face/basket/checkout/')
    await waitFor(() => expect(total()).toBe('$30.00'))
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Pay $30.00' }))
    expect(await screen.findByText('Insufficient funds on the balance')).toBeInTheDocument()
    expect(await screen.findByText('Your balance is short of $20.00 for this order.')).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'From the balance' })).toBeDisabled()
    expect(app.location().pathname).toBe('/app/face/basket/checkout/')
    // the checkout explains it: no error modal
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('promo codes', () => {
  it('empty, filled, applied: the discount comes off the total, the balance is off, the code goes with the purchase', async () => {
    basketWith('face', [{ product: 'face_online_subscribe', license_expire_delta: 2_592_000, count: 1 }])
    const sent: Call[] = []
    mockApi({
      ...signedInRoutes({ profile: withPrices(100) }),
      'POST /api/promocode/validate/': () => json(200, { promocode: 'SAVE10', discount: '10%' }),
      'POST /api/resource/subscribe/': (c) => {
        sent.push(c)
        return json(200, {
          status: 'pending',
          order_id: 4,
          transaction_id: 4,
          subscription_id: 4,
          amount: 27,
          payment: { provider: 'sandbox', provider_data: { session_id: 's4', url: '/api/payments/sandbox/s4/' } },
        })
      },
    })
    const go = vi.spyOn(leave, 'to').mockImplementation(() => {})
    renderApp('/app/face/basket/checkout/')
    await waitFor(() => expect(total()).toBe('$30.00'))
    const input = screen.getByRole('textbox', { name: 'Promo code' })
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled()
    fireEvent.change(input, { target: { value: 'save10' } })
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }))
    await waitFor(() => expect(total()).toBe('$27.00'))
    expect(screen.getByRole('textbox', { name: 'Promo code' })).toHaveAttribute('readonly')
    expect(screen.getByRole('textbox', { name: 'Promo code' })).toHaveValue('SAVE10')
    expect(screen.getByTestId('order-discount')).toHaveTextContent('$3.00')

    // cleared, then applied again
    fireEvent.click(screen.getByRole('button', { name: 'Remove the code' }))
    await waitFor(() => expect(total()).toBe('$30.00'))
    expect(screen.getByRole('textbox', { name: 'Promo code' })).toHaveValue('')
    fireEvent.change(screen.getByRole('textbox', { name: 'Promo code' }), { target: { value: 'save10' } })
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Promo code' }), { key: 'Enter' })
    await waitFor(() => expect(total()).toBe('$27.00'))

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    // step 2: no promo box, and no balance with a promo
    expect(await screen.findByRole('radio', { name: 'From the balance' })).toBeDisabled()
    expect(screen.queryByRole('textbox', { name: 'Promo code' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Pay $27.00' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/payments/sandbox/s4/'))
    expect(sent[0]!.body).toMatchObject({ payment_source: 'stripe', promocode: 'SAVE10' })
  })

  it('a refusal shows under the input with the platform name', async () => {
    basketWith('face', [{ product: 'face_online_subscribe', license_expire_delta: 2_592_000, count: 1 }])
    let asked: unknown = null
    mockApi({
      ...signedInRoutes({ profile: withPrices(100) }),
      'POST /api/promocode/validate/': (c) => {
        asked = c.body
        return json(400, { error_code: ERRORS.promo_wrong_platform.code, error: ERRORS.promo_wrong_platform.message })
      },
    })
    renderApp('/app/face/basket/checkout/')
    await waitFor(() => expect(total()).toBe('$30.00'))
    fireEvent.change(screen.getByRole('textbox', { name: 'Promo code' }), { target: { value: 'NUI5' } })
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }))
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Promo code' })).toHaveAccessibleDescription("This promo code can't be applied to this platform (Face SDK)"),
    )
    expect(asked).toEqual({ promocode: 'NUI5', product: 'face_online_subscribe' })
    expect(total()).toBe('$30.00')
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('a promo refused at purchase time', () => {
  it('says why in step 2, without the error modal', async () => {
    basketWith('face', [{ product: 'face_online_subscribe', license_expire_delta: 2_592_000, count: 1 }])
    mockApi({
      ...signedInRoutes({ profile: withPrices(100) }),
      'POST /api/promocode/validate/': () => json(200, { promocode: 'LAST', discount: '5' }),
      'POST /api/resource/subscribe/': () => json(400, { error_code: ERRORS.promo_used_up.code, error: ERRORS.promo_used_up.message }),
    })
    renderApp('/app/face/basket/checkout/')
    fireEvent.change(await screen.findByRole('textbox', { name: 'Promo code' }), { target: { value: 'LAST' } })
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }))
    await waitFor(() => expect(total()).toBe('$25.00'))
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Pay $25.00' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(`${ERRORS.promo_used_up.message} (Face SDK)`)
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('the custom Face SDK builder', () => {
  it('asks the database size first, prices live from the tier rows, keeps its draft, and puts the line into the checkout', async () => {
    mockApi(signedInRoutes({ profile: withPrices() }))
    const app = renderApp('/app/face/basket/license-selection/create/')
    const drawer = await screen.findByRole('dialog', { name: 'Build your own Face SDK subscription' })
    const next = within(drawer).getByRole('button', { name: 'Continue to checkout' })
    await waitFor(() => expect(within(drawer).getByTestId('custom-total')).toHaveTextContent('$0.00'))
    expect(next).toBeDisabled()
    // the size is the first choice, with every tier of section 9
    const size = within(drawer).getByRole('combobox', { name: 'Face database size' })
    expect(within(drawer).getAllByRole('combobox')[0]).toBe(size)
    expect(size.compareDocumentPosition(within(drawer).getByRole('group', { name: 'Components' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect([...size.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'No face database (1:1 verification)',
      'Up to 100 faces',
      'Up to 500 faces',
      'Up to 1,000 faces',
      'Up to 5,000 faces',
      'Up to 10,000 faces',
      'Up to 50,000 faces',
      'Up to 100,000 faces',
      'Up to 500,000 faces',
      'Up to 1,000,000 faces',
      'Up to 5,000,000 faces',
      'Up to 10,000,000 faces',
    ])
    expect(size).toHaveValue('1000')
    fireEvent.click(within(drawer).getByRole('checkbox', { name: 'Face detector' }))
    expect(within(drawer).getByTestId('custom-total')).toHaveTextContent('$5.00')
    // the extension alone: its $10 and the 1,000-face tier's $14
    fireEvent.click(within(drawer).getByRole('checkbox', { name: 'Video client extension' }))
    expect(within(drawer).getByTestId('custom-total')).toHaveTextContent('$29.00')
    fireEvent.click(within(drawer).getByRole('checkbox', { name: 'Matcher (face search)' }))
    expect(within(drawer).getByTestId('custom-total')).toHaveTextContent('$43.00')
    // a larger database reprices both: 5 + (10 + 34) + 34
    fireEvent.change(size, { target: { value: '5000' } })
    expect(within(drawer).getByTestId('custom-total')).toHaveTextContent('$83.00')
    expect(within(drawer).getByRole('checkbox', { name: 'Matcher (face search)' })).toHaveAccessibleDescription('$34.00 a month')
    expect(within(drawer).getByRole('checkbox', { name: 'Video client extension' })).toHaveAccessibleDescription('$44.00 a month')
    fireEvent.click(within(drawer).getByRole('checkbox', { name: 'Video client extension' }))
    expect(within(drawer).getByTestId('custom-total')).toHaveTextContent('$39.00')
    expect(JSON.parse(localStorage.getItem('portal.face-custom-draft')!)).toEqual({ components: ['detector', 'matcher'], database: 5000 })
    app.unmount()

    // the draft survives a new visit
    mockApi(signedInRoutes({ profile: withPrices() }))
    const again = renderApp('/app/face/basket/license-selection/create/')
    const drawer2 = await screen.findByRole('dialog', { name: 'Build your own Face SDK subscription' })
    expect(within(drawer2).getByRole('checkbox', { name: 'Face detector' })).toBeChecked()
    expect(within(drawer2).getByRole('combobox', { name: 'Face database size' })).toHaveValue('5000')
    await waitFor(() => expect(within(drawer2).getByTestId('custom-total')).toHaveTextContent('$39.00'))
    fireEvent.click(within(drawer2).getByRole('button', { name: 'Continue to checkout' }))
    await waitFor(() => expect(again.location().pathname).toBe('/app/face/basket/checkout/'))
    await waitFor(() => expect(total()).toBe('$39.00'))
    // the line names its tier
    expect(
      within(screen.getByRole('complementary', { name: 'Order summary' })).getByText(/Face SDK custom subscription, up to 5,000 faces/),
    ).toBeInTheDocument()
    const line = JSON.parse(sessionStorage.getItem('portal.basket.face')!)['face_online_custom_subscribe_2592000']
    expect(line.config.license_content).toEqual({ detector: 1, matcher: 1, database: 5000 })
  })

  it('Escape closes the panel back to the plan cards', async () => {
    mockApi(signedInRoutes({ profile: withPrices() }))
    const app = renderApp('/app/face/basket/license-selection/create/')
    const drawer = await screen.findByRole('dialog', { name: 'Build your own Face SDK subscription' })
    fireEvent.keyDown(drawer, { key: 'Escape' })
    await waitFor(() => expect(app.location().pathname).toBe('/app/face/basket/license-selection/'))
  })
})

describe('license-purchase-success', () => {
  it('closing refetches groups and licenses and goes to ?next', async () => {
    let licenseReads = 0
    let groupReads = 0
    mockApi({
      ...signedInRoutes({ profile: withPrices() }),
      'GET /api/license/': (c) => (licenseReads++, licenseListAnswer([], c.url)),
      'GET /api/group/': () => (groupReads++, json(200, { groups: [], unactivated_licenses: 0 })),
    })
    const app = renderApp('/app/face/license-purchase-success/?next=%2Fapp%2Fface%2Fdashboard%2F41%2Finfo%2F')
    const dialog = await screen.findByRole('dialog', { name: 'Thank you for your purchase' })
    expect(within(dialog).getByRole('link', { name: /Contact support/ })).toHaveAttribute('href', '/api/service/redirect/?service=freshdesk')
    const [l0, g0] = [licenseReads, groupReads]
    fireEvent.click(within(dialog).getByRole('button', { name: 'Go to my licenses' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/face/dashboard/41/info/'))
    await waitFor(() => expect(licenseReads).toBeGreaterThan(l0))
    expect(groupReads).toBeGreaterThan(g0)
  })

  it('offers to generate all the keys at once, then lists them with their keys', async () => {
    let groups = [
      groupView({ id: 9, title: 'Stores', limit: 3, total: 3 }),
      groupView({ id: 11, title: 'Face', type: 'face', product: 'face_offline_perpetual', config: { product: 'face_offline_perpetual' }, limit: 5, total: 5 }),
    ]
    const made = [1, 2, 3].map((n) => licenseView({ id: 40 + n, title: `Nuitrack subscription #${40 + n}`, token: `KEY${n}-0000` }))
    const calls = mockApi({
      ...signedInRoutes({ profile: withPrices() }),
      'GET /api/group/': () => json(200, { groups, unactivated_licenses: 0 }),
      'POST /api/group/:id/new-licenses/': () => {
        groups = [{ ...groups[0]!, limit: 0, used_licenses: 3 }, groups[1]!]
        return json(200, { licenses: made, group: groups[0] })
      },
    })
    renderApp('/app/nuitrack/license-purchase-success/')
    const dialog = await screen.findByRole('dialog', { name: 'Thank you for your purchase' })
    // another platform's licenses are that platform's
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Generate all 3 keys now' }))
    const keys = await within(dialog).findAllByTestId('new-key')
    expect(keys.map((k) => k.textContent)).toEqual([
      'Nuitrack subscription #41KEY1-0000Copy',
      'Nuitrack subscription #42KEY2-0000Copy',
      'Nuitrack subscription #43KEY3-0000Copy',
    ])
    expect(within(keys[0]!).getByRole('button', { name: 'Copy the key of Nuitrack subscription #41' })).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.url, c.body])).toEqual([['/api/group/9/new-licenses/', { count: 3 }]])
    expect(within(dialog).getByText('Titles can be changed on each license’s page.')).toBeInTheDocument()
  })

  it('back from PayPal (?token=): the order is captured once, then the modal closes as usual', async () => {
    const captures: Call[] = []
    let release: (() => void) | null = null
    mockApi({
      ...signedInRoutes({ profile: withPrices() }),
      'POST /api/paypal/capture-payment/': (c) => {
        captures.push(c)
        return new Promise<Response>((resolve) => {
          release = () => resolve(json(200, { status: 'ok', transaction_id: 4, transaction_status: 'ok' }))
        })
      },
    })
    const app = renderApp('/app/nuitrack/license-purchase-success/?token=5O190127TN364715T&PayerID=X')
    expect(await screen.findByText('Confirming your PayPal payment…')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Go to my licenses' })).toBeDisabled()
    await waitFor(() => expect(release).not.toBeNull())
    release!()
    expect(await screen.findByText('Your licenses will be added soon. This may take some time.')).toBeInTheDocument()
    expect(captures.map((c) => c.body)).toEqual([{ order_id: '5O190127TN364715T' }])
    fireEvent.click(screen.getByRole('button', { name: 'Go to my licenses' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/nuitrack/dashboard/'))
  })

  it('a next outside /app/ is ignored: the dashboard', async () => {
    mockApi(signedInRoutes({ profile: withPrices() }))
    const app = renderApp('/app/nuitrack/license-purchase-success/?next=https%3A%2F%2Fevil.example%2F')
    fireEvent.click(await screen.findByRole('button', { name: 'Go to my licenses' }))
    await waitFor(() => expect(app.location().pathname).toBe('/app/nuitrack/dashboard/'))
  })
})
