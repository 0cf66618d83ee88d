// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isLogged, readCookie } from './cookies.ts'

const cookieGetter = () => vi.spyOn(Document.prototype, 'cookie', 'get')

describe('readCookie', () => {
  afterEach(() => vi.restoreAllMocks())

  it('reads document.cookie once per script run: each read is a round trip to the browser’s network process', () => {
    document.cookie = 'csrftoken=abc; path=/'
    document.cookie = 'user_status=logged; path=/'
    const reads = cookieGetter()
    expect(readCookie('csrftoken')).toBe('abc')
    expect(isLogged()).toBe(true)
    expect(readCookie('missing')).toBeNull()
    expect(reads).toHaveBeenCalledTimes(1)
  })

  it('reads them anew once the running script is done, so a cookie the server set or cleared is seen', async () => {
    document.cookie = 'user_status=logged; path=/'
    expect(isLogged()).toBe(true)
    document.cookie = 'user_status=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/'
    await Promise.resolve()
    expect(isLogged()).toBe(false)
  })

  it('decodes values, and keeps a value it cannot decode as it is', async () => {
    document.cookie = `a=${encodeURIComponent('x y=z')}; path=/`
    document.cookie = 'b=%E0%A4%A; path=/'
    await Promise.resolve()
    expect(readCookie('a')).toBe('x y=z')
    expect(readCookie('b')).toBe('%E0%A4%A')
  })
})
