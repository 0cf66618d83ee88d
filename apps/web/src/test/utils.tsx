import { render } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { vi } from 'vitest'
import type { GroupView, LicenseView, ProfileResponse } from '@portal/domain'
import { AppProviders } from '../app/providers.tsx'
import { appRoutes } from '../app/router.tsx'
import { makeQueryClient } from '../lib/query-client.ts'

export interface Call {
  url: string
  method: string
  body: unknown
  headers: Record<string, string>
}

type Handler = (call: Call) => Response | Promise<Response>

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/** Replaces fetch; returns the recorded calls. */
export function mockFetch(handler: Handler) {
  const calls: Call[] = []
  globalThis.fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = {
      url: String(input),
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init?.headers ?? {}) as Record<string, string>,
    }
    calls.push(call)
    return handler(call)
  }) as typeof fetch
  return calls
}

/** Renders the whole app at a path, with a memory router the test can inspect. */
export function renderApp(path: string, state?: unknown) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [state ? { pathname: path.split('?')[0]!, search: path.includes('?') ? `?${path.split('?')[1]}` : '', state } : path] })
  const queryClient = makeQueryClient()
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  )
  return { ...view, router, queryClient, location: () => router.state.location }
}

export const setLogged = () => {
  document.cookie = 'user_status=logged; path=/'
}

export const profile = (over: Partial<ProfileResponse['client_info']> = {}): ProfileResponse => ({
  client_info: {
    id: 7,
    balance: 12.5,
    token: 'tok',
    options: {
      balance_autofill: false,
      bills_mail: true,
      news_notification: true,
      updates_notification: true,
      corporate_member: false,
      facesdk_allow_subscribe: false,
    },
    company: { name: '', address: '', vat: '', type: '', site: '', position: '' },
    email: 'ann@example.com',
    pending_email: null,
    name: 'Ann',
    last_name: 'Lee',
    phone: '',
    position: '',
    is_staff: false,
    ...over,
  },
  prices: { nuitrack: [], face: [], 'face-machine': [], 'nuitrack-analytics': [] },
  payment_provider_key: 'pk',
  paypal_merchant_id: 'm',
  paypal_client_id: 'c',
})

/** A license as GET /api/license/ answers it (a new offline Face SDK license unless told). */
export const licenseView = (over: Partial<LicenseView> = {}): LicenseView => ({
  id: 5,
  type: 'face',
  title: 'Door cameras',
  group: 'Face SDK group #9',
  group_id: 9,
  config: { product: 'face_offline_perpetual' },
  created_date: '2026-11-01T00:00:00Z',
  expire_date: null,
  activation_date: null,
  dates: { createdDate: '2026-11-01', expireDate: null, activationDate: null, days: null },
  status: 0,
  license_status: 'new',
  state: 'new',
  subscription_status: null,
  next_payment: null,
  activations: [],
  locked_to: null,
  token: 'ABCD-EFGH-JKLM-NPQR',
  serial_sensor: '',
  data: null,
  card_brand: null,
  card_last4: null,
  paypal_email: null,
  is_fake: false,
  is_trial: false,
  is_subscription: false,
  from_custom_group: false,
  price: null,
  lifetime: null,
  upgradeable: { toAI: null },
  ...over,
})

/** A group as GET /api/group/ answers it (a default Face SDK group with 2 to generate unless told). */
export const groupView = (over: Partial<GroupView> = {}): GroupView => ({
  id: 9,
  type: 'face',
  product: 'face_offline_perpetual',
  os_type: null,
  title: 'Face SDK group #9',
  is_default: true,
  is_fake: false,
  limit: 2,
  holded_limit: 0,
  used_licenses: 1,
  total: 3,
  config: { product: 'face_offline_perpetual' },
  token: 'tok',
  months: null,
  source_group_id: null,
  upgradeable: { toAI: null },
  has_available_license: true,
  created_date: '2026-11-01T00:00:00Z',
  ...over,
})
