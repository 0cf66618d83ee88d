import { matchRoutes } from 'react-router'
import { describe, expect, it } from 'vitest'
import { PLATFORMS } from '@portal/domain'
import { paths } from '../config/paths.ts'
import { appRoutes } from './router.tsx'
import { makeQueryClient } from '../lib/query-client.ts'

/** The route table, as the app builds it. */
const table = appRoutes(makeQueryClient())

/** Sample arguments for the path builders: every platform, an id and a token. */
function expand(name: string, build: string | ((...args: never[]) => string)): string[] {
  if (typeof build === 'string') return [build]
  const f = build as (...args: unknown[]) => string
  if (name === 'setPassword' || name === 'registrationConfirm' || name === 'emailRevert') return [f(5, 'abcdefghijklmnop1234')]
  if (name === 'groupKeyInfo') return [f(7)]
  if (name === 'licenseInfo' || name === 'preInfo' || name === 'renewalPayment') return PLATFORMS.map((p) => f(p, 7))
  if (name === 'subscriptionCheckout') return PLATFORMS.map((p) => f(p, 'pro'))
  if (name === 'upgradeCheckout') return [f('nuitrack', 'upgrade', 'pro', 7), f('nuitrack', 'upgrade-y', 'pro', 7), f('face-machine', 'upgrade', 'trial', 7)]
  return PLATFORMS.map((p) => f(p))
}

const CATCH_ALL = new Set(['/app/*', '*'])

describe('the paths table and the router', () => {
  it('every path the app links to is served by its own route, not the catch-all', () => {
    const unserved: string[] = []
    for (const [name, build] of Object.entries(paths)) {
      for (const path of expand(name, build)) {
        const url = new URL(path, 'http://x')
        const matches = matchRoutes(table, url.pathname) ?? []
        const leaf = matches.at(-1)?.route
        const served = leaf && (leaf.index || (leaf.path !== undefined && !CATCH_ALL.has(leaf.path)))
        if (!served) unserved.push(`${name}: ${path}`)
      }
    }
    expect(unserved).toEqual([])
  })
})
