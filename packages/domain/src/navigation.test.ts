import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { afterSignIn, platformHome, sanitizeNext, splitPlatformSignInPath } from './navigation.ts'

describe('next is sanitised to stay under /app/', () => {
  it('keeps app paths and refuses everything else', () => {
    expect(sanitizeNext('/app/face/dashboard/')).toBe('/app/face/dashboard/')
    expect(sanitizeNext('%2Fapp%2Faccount%2F')).toBe('/app/account/')
    for (const bad of ['https://evil.example/', '//evil.example/app/', '/app/../admin', '/app//evil', '/\\evil', 'javascript:alert(1)', '/apple', '/app', '', null, undefined, '%E0%A4%A']) {
      expect(sanitizeNext(bad as string), String(bad)).toBeNull()
    }
  })

  it('whatever it keeps starts with /app/, has no // and no dot segments', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = sanitizeNext(s)
        if (out === null) return
        expect(out.startsWith('/app/')).toBe(true)
        expect(out.includes('//')).toBe(false)
        expect(out.split('/').some((seg) => seg === '..' || seg === '.')).toBe(false)
      }),
    )
  })
})

describe('after sign-in', () => {
  it('remembered path, else next, else the platform home', () => {
    expect(afterSignIn({ remembered: '/app/account/', next: '/app/group-keys/', platform: 'face' })).toBe('/app/account/')
    expect(afterSignIn({ remembered: null, next: '/app/group-keys/', platform: 'face' })).toBe('/app/group-keys/')
    expect(afterSignIn({ remembered: 'https://evil/', next: 'https://evil/', platform: 'face' })).toBe('/app/face/dashboard/')
    expect(afterSignIn({ platform: 'nope' })).toBe('/app/nuitrack/dashboard/')
    expect(platformHome(null)).toBe('/app/nuitrack/dashboard/')
  })
})

describe('platform before a sign-in path', () => {
  it('redirects to the plain path and carries the platform', () => {
    expect(splitPlatformSignInPath('/app/face/login/')).toEqual({ path: '/app/login/', platform: 'face' })
    expect(splitPlatformSignInPath('/app/face-machine/set-password/1/tok/')).toEqual({ path: '/app/set-password/1/tok/', platform: 'face-machine' })
    expect(splitPlatformSignInPath('/app/face/dashboard/')).toBeNull()
    expect(splitPlatformSignInPath('/app/unknown/login/')).toBeNull()
    expect(splitPlatformSignInPath('/app/login/')).toBeNull()
  })
})
