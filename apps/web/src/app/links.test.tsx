import { screen, waitFor } from '@testing-library/react'
import { matchRoutes } from 'react-router'
import { describe, expect, it } from 'vitest'
import { PLATFORMS, STAFF_FORM_PATHS } from '@portal/domain'
import { paths, routes } from '../config/paths.ts'
import { faceGroupView as group, faceLicenseView as license, json, mockApi, profile, renderApp, setLogged, signedInRoutes } from '../test/utils.tsx'
import { appRoutes } from './router.tsx'
import { makeQueryClient } from '../lib/query-client.ts'

/** The route table, as the app builds it. */
const table = appRoutes(makeQueryClient())

/** The catch-alls: a path that only they match is a "Page not found" (or a redirect away). */
const CATCH_ALLS = new Set(['*', '/app/*'])

/** The route a path lands on, or null when only a catch-all takes it. */
function routeOf(path: string): string | null {
  const matches = matchRoutes(table, path.split(/[?#]/)[0]!)
  const leaf = matches?.at(-1)?.route
  if (!leaf) return null
  const pattern =
    matches!
      .map((m) => m.route.path)
      .filter(Boolean)
      .at(-1) ?? ''
  if (CATCH_ALLS.has(pattern) || /^\/app\/[\w-]+\/\*$/.test(pattern)) return null
  return pattern
}

const LICENSES = [
  license({}),
  license({
    id: 6,
    type: 'nuitrack',
    title: 'Lobby',
    config: { product: 'nuitrack_subscribe' },
    group_id: 10,
    license_status: 'active',
    is_subscription: true,
  }),
  license({ id: 7, type: 'face-machine', title: 'Cloud', config: { product: 'fmc_subscribe', tag: 'FMC Trial' }, is_trial: true, group_id: 11 }),
]
const GROUPS = [
  group({}),
  group({ id: 10, type: 'nuitrack', product: 'nuitrack_subscribe', os_type: 1, title: 'Nuitrack Pro group #10', config: { product: 'nuitrack_subscribe' } }),
  group({
    id: 12,
    type: 'nuitrack',
    product: 'nuitrack_subscribe',
    os_type: 1,
    title: 'Exhibition',
    is_default: false,
    source_group_id: 10,
    config: { product: 'nuitrack_subscribe' },
  }),
]

function backend() {
  mockApi({
    ...signedInRoutes({ profile: profile({ is_staff: true }), licenses: LICENSES, groups: GROUPS }),
    'GET /api/versions/face/': () => json(200, { facesdk_versions: [{ version: '3.24', is_default: true }] }),
    'GET /api/components/face/': () => json(200, { components: ['matcher', 'detector', 'desktop_gpu_support'] }),
    'GET /api/captcha/challenge/': () => json(200, { kind: 'altcha', algorithm: 'SHA-256', challenge: 'x', maxnumber: 1, salt: 's', signature: 'sig' }),
  })
}

/** Screens of the portal, signed in as staff (so the staff menu link shows) or signed out. */
const SIGNED_IN = [
  ...PLATFORMS.map((p) => paths.dashboard(p)),
  paths.licenseInfo('face', 5),
  paths.licenseInfo('nuitrack', 6),
  paths.licenseInfo('face-machine', 7),
  paths.preInfo('face', 9),
  paths.account,
  paths.groupKeys,
  paths.groupKeyInfo(12),
  paths.paymentDoc,
  paths.staffPerpetual,
  paths.staffSubscription,
  '/app/face/no-such-page/',
]
const SIGNED_OUT = [paths.login, paths.registration, paths.forgotPassword, paths.analyticsLogin, paths.analyticsRegistration, '/nothing/']

async function linksOn(path: string): Promise<string[]> {
  backend()
  const app = renderApp(path)
  // the screen has settled when its main heading is there and nothing is loading
  await screen.findAllByRole('heading', { level: 1 })
  await waitFor(() => expect(document.querySelectorAll('[aria-label^="Loading"]')).toHaveLength(0))
  const hrefs = [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')!)
  app.unmount()
  return hrefs
}

describe('the route table and the links (one table serves both)', () => {
  it('every link target of config/paths.ts lands on a route, not on "Page not found"', () => {
    const targets = [
      ...Object.values(paths as Record<string, unknown>).filter((v): v is string => typeof v === 'string'),
      ...PLATFORMS.flatMap((p) => [paths.platform(p), paths.dashboard(p), paths.licenseInfo(p, 1), paths.preInfo(p, 2), paths.preInfo(p, 2, true)]),
      paths.setPassword(3, 'tok'),
      paths.registrationConfirm(3, 'tok'),
      paths.groupKeyInfo(4),
      STAFF_FORM_PATHS.perpetual,
      STAFF_FORM_PATHS.subscription,
    ]
    for (const target of targets) expect(routeOf(target), target).not.toBeNull()
    // and the table has no pattern the router lacks
    for (const [name, pattern] of Object.entries(routes))
      expect(routeOf(pattern.replace(/:(\w+)/g, name === 'platform' || pattern.includes(':platform') ? 'face' : '1')), name).not.toBeNull()
  })

  it.each(SIGNED_IN)('signed in, every /app/ link on %s matches a route', async (path) => {
    setLogged()
    const hrefs = await linksOn(path)
    const internal = hrefs.filter((h) => h.startsWith('/app/'))
    expect(internal.length).toBeGreaterThan(0)
    for (const href of internal) expect(routeOf(href), `${path} links to ${href}`).not.toBeNull()
    // the shell's menu is on every signed-in screen, and as staff it offers the staff form
    if (!path.includes('no-such-page')) expect(hrefs).toContain(paths.staffPerpetual)
  })

  it.each(SIGNED_OUT)('signed out, every /app/ link on %s matches a route', async (path) => {
    const hrefs = await linksOn(path)
    for (const href of hrefs.filter((h) => h.startsWith('/app/'))) expect(routeOf(href), `${path} links to ${href}`).not.toBeNull()
  })

  it('docs and forum links go through the server redirect of named links', async () => {
    setLogged()
    const hrefs = [...(await linksOn(paths.dashboard('nuitrack'))), ...(await linksOn(paths.dashboard('face')))]
    const external = hrefs.filter((h) => /^https?:/.test(h))
    expect(external).toEqual([])
    expect(hrefs).toEqual(
      expect.arrayContaining(['/external_resource/link/nuitrack_docs/', '/external_resource/link/nuitrack_forum/', '/external_resource/link/face_sdk_docs/']),
    )
  })
})
