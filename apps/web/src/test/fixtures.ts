import {
  CATALOGUE_PRICES,
  ERRORS,
  FLEET_ACTIVATION_DAYS,
  FLEET_SPEND_MONTHS,
  LICENSE_STATES,
  PLATFORMS,
  groupViewSchema,
  LIST_LIMIT_MAX,
  licenseListQuery,
  licenseViewSchema,
  pageOfList,
  pageRequest,
  profileResponseSchema,
  type ActivityEvent,
  type TokenView,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type FleetSummary,
  type FleetView,
  type GroupView,
  type LicenseState,
  type LicenseView,
  type Platform,
  type ProfileResponse,
  type TransactionView,
} from '@portal/domain'
import { json, type Routes } from './mock-api.ts'

/** Fixtures are parsed through the domain's response schemas: a fixture the API could not answer fails. */
export const profile = (over: Partial<ProfileResponse['client_info']> = {}): ProfileResponse =>
  profileResponseSchema.parse({
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

/** The seeded price table (the catalogue's rows) as GET /api/client/ answers it, in USD. */
export const seededPrices = (): ProfileResponse['prices'] =>
  Object.fromEntries(
    PLATFORMS.map((p) => [
      p,
      CATALOGUE_PRICES.filter((r) => r.platform === p).map((r) => ({
        product: r.product,
        license_type: r.license_type,
        plan_id: r.plan_id,
        tier: r.tier,
        cost: r.cost_cents / 100,
        old_price: r.old_price_cents === null ? null : r.old_price_cents / 100,
        discount: r.discount,
        deprecated: r.deprecated,
      })),
    ]),
  ) as ProfileResponse['prices']

/** A license as GET /api/license/ answers it: a new Nuitrack perpetual license by default. */
export const licenseView = (over: Partial<LicenseView> = {}): LicenseView =>
  licenseViewSchema.parse({
    id: 5,
    type: 'nuitrack',
    title: 'Nuitrack #5',
    group: 'Nuitrack group #1',
    group_id: 1,
    config: { product: 'nuitrack_ai_perpetual' },
    created_date: '2026-11-22T12:00:00.000Z',
    expire_date: null,
    activation_date: null,
    dates: { createdDate: '2026-11-22T12:00:00.000Z', expireDate: null, activationDate: null, days: null },
    status: 0,
    license_status: 'new',
    state: 'new',
    subscription_status: 'none',
    next_payment: null,
    activations: [],
    locked_to: null,
    token: 'AAAA-BBBB-CCCC-DDDD',
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
    subscription: null,
    held_until: null,
    paused_at: null,
    data_erase_date: null,
    data_erased_at: null,
    ...over,
  })

/** A group as GET /api/group/ answers it: a default Nuitrack group by default. */
export const groupView = (over: Partial<GroupView> = {}): GroupView =>
  groupViewSchema.parse({
    id: 1,
    type: 'nuitrack',
    product: 'nuitrack_ai_perpetual',
    os_type: null,
    title: 'Nuitrack group #1',
    is_default: true,
    is_fake: false,
    limit: 0,
    holded_limit: 0,
    used_licenses: 1,
    total: 1,
    config: { product: 'nuitrack_ai_perpetual' },
    token: 'GGGG-HHHH-IIII-JJJJ',
    months: null,
    source_group_id: null,
    upgradeable: { toAI: null },
    has_available_license: false,
    created_date: '2026-11-22T12:00:00.000Z',
    held_until: null,
    ...over,
  })

/**
 * GET /api/license/ as the server answers it: the newest 200 (of a platform, of a group or of the
 * group keys), or a page with its counts, filtered by the domain's rules (the server's SQL is tested
 * equal to them).
 */
export function licenseListAnswer(licenses: LicenseView[], url: string) {
  const query = licenseListQuery.safeParse(Object.fromEntries(new URL(url, 'http://portal').searchParams))
  if (!query.success) return json(400, { error_code: ERRORS.validation_failed.code, error: ERRORS.validation_failed.message })
  const page = pageRequest(query.data)
  const { type, group } = query.data
  const mine = licenses
    .filter((l) => !type || l.type === type)
    .filter((l) => group === undefined || (group === 'keys' ? l.from_custom_group : l.group_id === group))
    .sort((a, b) => b.id - a.id)
    .slice(0, LIST_LIMIT_MAX)
  return json(200, page ? pageOfList(licenses, page) : { licenses: mine })
}

/**
 * The reads a signed-in screen makes: the profile, licenses (the list and each one), groups, the
 * changelog, the transactions and the activity history (a license's lines are those of `history`
 * with its id; the account's are all of them).
 */
export const signedInRoutes = (
  data: {
    profile?: ProfileResponse
    licenses?: LicenseView[]
    groups?: GroupView[]
    /** the client's unactivated licenses, as the group list counts them */
    unactivated?: number
    transactions?: TransactionView[]
    history?: ActivityEvent[]
    tokens?: TokenView[]
    webhooks?: WebhookEndpointView[]
    deliveries?: WebhookDeliveryView[]
    /** the fleet view's answer (an account with nothing by default) and the dashboard strip's counts */
    fleet?: FleetView
    fleetSummary?: FleetSummary
  } = {},
): Routes => ({
  'GET /api/client/': () => json(200, data.profile ?? profile()),
  'GET /api/license/': (c) => licenseListAnswer(data.licenses ?? [], c.url),
  'GET /api/license/:id/': (c) => {
    const found = data.licenses?.find((l) => String(l.id) === c.params.id)
    return found ? json(200, found) : json(404, { error_code: ERRORS.not_found.code, error: ERRORS.not_found.message })
  },
  'GET /api/group/': () => json(200, { groups: data.groups ?? [], unactivated_licenses: data.unactivated ?? 0 }),
  'GET /api/changelog/': () => json(200, { entries: [] }),
  'GET /api/transaction/': () => json(200, { transactions: data.transactions ?? [], total: data.transactions?.length ?? 0, credit_notes: [], owed: 0 }),
  // the Face Machine info screen shows its plan: none listed is the default configuration
  'GET /api/face-machine/rates/': () => json(200, { plans: [] }),
  'GET /api/license/:id/history/': (c) => json(200, { events: (data.history ?? []).filter((e) => String(e.license_id) === c.params.id) }),
  'GET /api/account/history/': () => json(200, { events: data.history ?? [], total: data.history?.length ?? 0, offset: 0, limit: 50 }),
  // the account screen's API tokens and webhooks
  'GET /api/account/tokens/': () => json(200, { tokens: data.tokens ?? [] }),
  'GET /api/account/webhooks/': () => json(200, { endpoints: data.webhooks ?? [] }),
  'GET /api/account/webhooks/deliveries/': () => json(200, { deliveries: data.deliveries ?? [] }),
  'GET /api/account/fleet/': () => json(200, data.fleet ?? fleetView()),
  'GET /api/account/fleet/:platform/': () => json(200, data.fleetSummary ?? { active_devices: 0, expiring_soon: 0 }),
})

const zeroPerPlatform = () => Object.fromEntries(PLATFORMS.map((p) => [p, 0])) as Record<Platform, number>

/**
 * A fleet view with every day, week and month of its windows (ending 17 June 2026), all zero unless
 * `fill` says otherwise.
 */
export function fleetView(
  fill: {
    activations?: Record<string, Partial<Record<Platform, number>>>
    status?: Partial<Record<LicenseState, number>>
    expiring?: Record<string, number>
    spend?: Record<string, Partial<Record<Platform, number>>>
  } = {},
): FleetView {
  const day = (i: number) => new Date(Date.UTC(2026, 5, 17) - (FLEET_ACTIVATION_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10)
  const week = (i: number) => new Date(Date.UTC(2026, 5, 15) + i * 7 * 86_400_000).toISOString().slice(0, 10)
  const month = (i: number) => new Date(Date.UTC(2025, 6 + i, 1)).toISOString().slice(0, 7)
  return {
    activations: Array.from({ length: FLEET_ACTIVATION_DAYS }, (_, i) => ({ day: day(i), ...zeroPerPlatform(), ...fill.activations?.[day(i)] })),
    license_status: LICENSE_STATES.map((status) => ({ status, count: fill.status?.[status] ?? 0 })),
    expiring: Array.from({ length: 14 }, (_, i) => ({ week: week(i), count: fill.expiring?.[week(i)] ?? 0 })),
    spend: Array.from({ length: FLEET_SPEND_MONTHS }, (_, i) => ({ month: month(i), ...zeroPerPlatform(), ...fill.spend?.[month(i)] })),
  }
}

/** A new offline Face SDK license #5 of group #9 (for screens that show Face SDK activation). */
export const faceLicenseView = (over: Partial<LicenseView> = {}): LicenseView =>
  licenseView({ id: 5, type: 'face', title: 'Door cameras', group: 'Face SDK group #9', group_id: 9, config: { product: 'face_offline_perpetual' }, ...over })

/** A default Face SDK group #9 with 2 licenses still to generate. */
export const faceGroupView = (over: Partial<GroupView> = {}): GroupView =>
  groupView({
    id: 9,
    type: 'face',
    product: 'face_offline_perpetual',
    title: 'Face SDK group #9',
    limit: 2,
    used_licenses: 1,
    total: 3,
    has_available_license: true,
    config: { product: 'face_offline_perpetual' },
    ...over,
  })
