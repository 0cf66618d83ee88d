import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { SIGN_IN_PATHS, afterSignIn, platformHome, sanitizeNext, splitPlatformSignInPath } from './navigation.ts'
import { PLATFORMS } from './platforms.ts'

const BASE = 'https://portal.example'

/** What a browser would make of the value as a link on the portal. */
const resolve = (path: string) => new URL(path, BASE)

/** The invariant of section 2: a kept value stays under /app/ of the portal, with no // and no dot segments. */
function expectSafe(out: string) {
  expect(out.startsWith('/app/')).toBe(true)
  expect(out.includes('//')).toBe(false)
  expect(out.includes('\\')).toBe(false)
  expect(out.split(/[/?#]/).some((seg) => seg === '..' || seg === '.')).toBe(false)
  const url = resolve(out)
  expect(url.origin).toBe(BASE)
  expect(url.pathname.startsWith('/app/')).toBe(true)
}

/** Strings made of the characters that matter for paths, often starting with /app/. */
const pathy = fc
  .tuple(
    fc.constantFrom('', '/app/', '/app', '/', '//', '/app/face/', '%2Fapp%2F', '/APP/', '/app%2F'),
    fc.string({
      unit: fc.constantFrom('/', '.', '\\', '%', '2', 'e', 'E', 'f', 'F', '5', 'c', '?', '#', ':', 'a', 'p', 'x', '@', ' ', '\t', '\n', 'j'),
      maxLength: 20,
    }),
  )
  .map(([prefix, rest]) => prefix + rest)

const segment = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,15}$/)
const appPath = fc.array(segment, { minLength: 1, maxLength: 5 }).chain((segs) => fc.boolean().map((slash) => `/app/${segs.join('/')}${slash ? '/' : ''}`))

describe('sanitizeNext: the next value stays under /app/ (section 2)', () => {
  it('keeps plain app paths, also percent-encoded ones', () => {
    expect(sanitizeNext('/app/face/dashboard/')).toBe('/app/face/dashboard/')
    expect(sanitizeNext('/app/account/?tab=documents#top')).toBe('/app/account/?tab=documents#top')
    expect(sanitizeNext('%2Fapp%2Faccount%2F')).toBe('/app/account/')
    expect(sanitizeNext('/app/')).toBe('/app/')
    expect(sanitizeNext('/app/set-password/1/abc/')).toBe('/app/set-password/1/abc/')
  })

  it('keeps any ordinary path under /app/ unchanged', () => {
    fc.assert(
      fc.property(appPath, (p) => {
        expect(sanitizeNext(p)).toBe(p)
      }),
    )
  })

  it('refuses other origins, scheme-relative and backslash tricks, dot segments and javascript:', () => {
    const bad = [
      'http://evil',
      'http://evil/app/',
      'https://evil.example/',
      '//evil',
      '//evil.example/app/',
      '/app//evil',
      '/app/x//y',
      '/\\evil',
      '/app/\\evil',
      '/app/..',
      '/app/../x',
      '/app/x/../../y',
      '/app/./x',
      '/app/..?x=1',
      '/app/..#x',
      '/app/%2e%2e/x',
      '/app/%2E%2E/x',
      '/app/.%2e/x',
      '/app/%252e%252e/x',
      '%2Fapp%2F..%2Fadmin',
      '%2F%2Fevil',
      '/app/%5Cevil',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' /app/x',
      '/app/x\n',
      '/app/\t/x',
      'data:text/html,hi',
      '/apple',
      '/app',
      '/APP/x',
      'app/x',
      '',
      null,
      undefined,
      '%E0%A4%A',
    ]
    for (const b of bad) expect(sanitizeNext(b), String(b)).toBeNull()
  })

  it('whatever it returns starts with /app/, has no // and no .. segments, and resolves under /app/', () => {
    fc.assert(
      fc.property(fc.oneof(pathy, fc.string(), fc.webPath(), fc.webUrl()), (s) => {
        const out = sanitizeNext(s)
        if (out !== null) expectSafe(out)
      }),
      { numRuns: 1000 },
    )
    // a property run, not a timing check: on a loaded CI machine it may take a few seconds
  }, 30_000)

  it('prefixing an attack with /app/ does not make it pass', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('../', './', '/', '\\', '%2e%2e/', '.%2E/', '%2E./', '%2e/', '..?', '..#'),
        fc.array(segment, { maxLength: 3 }),
        (attack, tail) => {
          expect(sanitizeNext(`/app/${attack}${tail.join('/')}`)).toBeNull()
        },
      ),
    )
  })
})

describe('afterSignIn: remembered path, else next, else the platform home (section 2)', () => {
  it('follows the precedence', () => {
    expect(afterSignIn({ remembered: '/app/account/', next: '/app/group-keys/', platform: 'face' })).toBe('/app/account/')
    expect(afterSignIn({ remembered: null, next: '/app/group-keys/', platform: 'face' })).toBe('/app/group-keys/')
    expect(afterSignIn({ next: '/app/group-keys/' })).toBe('/app/group-keys/')
    expect(afterSignIn({ platform: 'face' })).toBe('/app/face/dashboard/')
    expect(afterSignIn({})).toBe('/app/nuitrack/dashboard/')
  })

  it('a remembered path always wins', () => {
    fc.assert(
      fc.property(appPath, fc.option(fc.oneof(appPath, fc.string())), fc.option(fc.string()), (remembered, next, platform) => {
        expect(afterSignIn({ remembered, next, platform })).toBe(remembered)
      }),
    )
  })

  it('without a usable remembered path, next wins', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(null, undefined, '', 'https://evil/', '//evil', '/app/../x'),
        appPath,
        fc.option(fc.string()),
        (remembered, next, platform) => {
          expect(afterSignIn({ remembered, next, platform })).toBe(next)
        },
      ),
    )
  })

  it('unsafe values fall through to the platform home; an unknown platform gives nuitrack', () => {
    for (const p of PLATFORMS) expect(afterSignIn({ remembered: 'https://evil/', next: '//evil', platform: p })).toBe(`/app/${p}/dashboard/`)
    fc.assert(
      fc.property(
        fc.string().filter((s) => !(PLATFORMS as readonly string[]).includes(s)),
        (platform) => {
          expect(afterSignIn({ remembered: null, next: 'javascript:alert(1)', platform })).toBe('/app/nuitrack/dashboard/')
        },
      ),
    )
    expect(afterSignIn({ platform: null })).toBe('/app/nuitrack/dashboard/')
    expect(afterSignIn({ platform: 'Face' })).toBe('/app/nuitrack/dashboard/')
  })

  it('always answers a safe path', () => {
    fc.assert(
      fc.property(fc.option(fc.oneof(pathy, fc.string())), fc.option(fc.oneof(pathy, fc.string())), fc.option(fc.string()), (remembered, next, platform) => {
        expectSafe(afterSignIn({ remembered, next, platform }))
      }),
    )
  })
})

describe('platformHome', () => {
  it('is the dashboard of the platform, nuitrack by default', () => {
    for (const p of PLATFORMS) expect(platformHome(p)).toBe(`/app/${p}/dashboard/`)
    expect(platformHome(null)).toBe('/app/nuitrack/dashboard/')
    expect(platformHome(undefined)).toBe('/app/nuitrack/dashboard/')
  })
})

describe('splitPlatformSignInPath: a platform before a sign-in path (section 2)', () => {
  it('redirects to the plain path and carries the platform', () => {
    expect(splitPlatformSignInPath('/app/face/login/')).toEqual({ path: '/app/login/', platform: 'face' })
    expect(splitPlatformSignInPath('/app/face/login')).toEqual({ path: '/app/login/', platform: 'face' })
    expect(splitPlatformSignInPath('/app/nuitrack/registration/')).toEqual({ path: '/app/registration/', platform: 'nuitrack' })
    expect(splitPlatformSignInPath('/app/face/set-password/1/tok/')).toEqual({ path: '/app/set-password/1/tok/', platform: 'face' })
    expect(splitPlatformSignInPath('/app/face-machine/set-password/1/tok/')).toEqual({ path: '/app/set-password/1/tok/', platform: 'face-machine' })
  })

  it('works for every platform and every sign-in path, keeping the rest of the path', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PLATFORMS), fc.constantFrom(...SIGN_IN_PATHS), fc.array(segment, { maxLength: 3 }), (platform, first, rest) => {
        const tail = rest.length ? `/${rest.join('/')}/` : '/'
        expect(splitPlatformSignInPath(`/app/${platform}/${first}${tail}`)).toEqual({ path: `/app/${first}${tail}`, platform })
      }),
    )
  })

  it('answers null for other shapes', () => {
    expect(splitPlatformSignInPath('/app/face/dashboard/')).toBeNull()
    expect(splitPlatformSignInPath('/app/face/licenses/12/')).toBeNull()
    expect(splitPlatformSignInPath('/app/face/face-machine/')).toBeNull()
    expect(splitPlatformSignInPath('/app/unknown/login/')).toBeNull()
    expect(splitPlatformSignInPath('/app/login/')).toBeNull()
    expect(splitPlatformSignInPath('/app/face/')).toBeNull()
    expect(splitPlatformSignInPath('/face/login/')).toBeNull()
    expect(splitPlatformSignInPath('')).toBeNull()
  })

  it('never answers for a path whose second segment is not a sign-in path', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PLATFORMS),
        segment.filter((s) => !(SIGN_IN_PATHS as readonly string[]).includes(s)),
        (platform, first) => {
          expect(splitPlatformSignInPath(`/app/${platform}/${first}/`)).toBeNull()
        },
      ),
    )
  })
})
