import { describe, expect, it } from 'vitest'
import { ACTIVATION_KEY_ALPHABET, activationKey, hashPassword, verifyPassword } from './crypto.ts'
import { randomString } from './crypto.ts'

describe('random strings from an alphabet', () => {
  it('activation keys use every character of the alphabet, about equally often', () => {
    const seen = new Map<string, number>()
    const keys = 4000
    for (let i = 0; i < keys; i++) {
      const key = activationKey()
      expect(key).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/)
      for (const c of key.replace(/-/g, '')) seen.set(c, (seen.get(c) ?? 0) + 1)
    }
    expect([...seen.keys()].sort().join('')).toBe([...ACTIVATION_KEY_ALPHABET].sort().join(''))
    // 64,000 draws over 32 characters: 2,000 each expected; a bias of the old kind (mod 32 of
    // base64url codes) left five characters at 0 and others near double
    const expected = (keys * 16) / ACTIVATION_KEY_ALPHABET.length
    for (const [c, n] of seen) expect(Math.abs(n - expected), c).toBeLessThan(expected * 0.15)
  })

  it('randomString draws only from the alphabet it is given', () => {
    expect(randomString('ab', 200)).toMatch(/^[ab]{200}$/)
    expect(new Set(randomString('xyz', 300)).size).toBe(3)
  })
})

describe('password hashes', () => {
  it("are argon2id at OWASP's baseline cost unless the test cost is asked for, and verify either way", async () => {
    const standard = await hashPassword('Str0ng-Pass')
    expect(standard).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await verifyPassword(standard, 'Str0ng-Pass')).toBe(true)
    expect(await verifyPassword(standard, 'Str0ng-Pasz')).toBe(false)
    const cheap = await hashPassword('Str0ng-Pass', 'test')
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/)
    expect(await verifyPassword(cheap, 'Str0ng-Pass')).toBe(true)
    expect(await verifyPassword(cheap, 'Str0ng-Pasz')).toBe(false)
  })
})
