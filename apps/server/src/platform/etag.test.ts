import { describe, expect, it } from 'vitest'
import { etagMatches, parseIfNoneMatch } from './etag.ts'

describe('parseIfNoneMatch', () => {
  it('reads nothing from a missing or empty header', () => {
    expect(parseIfNoneMatch(undefined)).toEqual({ any: false, tags: [] })
    expect(parseIfNoneMatch('')).toEqual({ any: false, tags: [] })
  })
  it('reads * as any, with or without whitespace', () => {
    expect(parseIfNoneMatch('*')).toEqual({ any: true, tags: [] })
    expect(parseIfNoneMatch('  * ')).toEqual({ any: true, tags: [] })
  })
  it('reads a list, dropping W/ and whitespace', () => {
    expect(parseIfNoneMatch('"a", W/"b",  "c" ,W/"d"')).toEqual({ any: false, tags: ['"a"', '"b"', '"c"', '"d"'] })
    expect(parseIfNoneMatch('\t"a",\t"b"\t')).toEqual({ any: false, tags: ['"a"', '"b"'] })
  })
  it('keeps a comma inside a tag and ignores what is not a tag', () => {
    expect(parseIfNoneMatch('"a,b", "c"')).toEqual({ any: false, tags: ['"a,b"', '"c"'] })
    expect(parseIfNoneMatch('a, "b", ,')).toEqual({ any: false, tags: ['"b"'] })
    expect(parseIfNoneMatch('"a", *')).toEqual({ any: false, tags: ['"a"'] })
  })
})

describe('etagMatches', () => {
  it('compares weakly, in a list, and matches * always', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true)
    expect(etagMatches('W/"a"', '"a"')).toBe(true)
    expect(etagMatches('"a"', 'W/"a"')).toBe(true)
    expect(etagMatches('"b", "a"', '"a"')).toBe(true)
    expect(etagMatches(' "b" ,W/"a" ', '"a"')).toBe(true)
    expect(etagMatches('*', '"a"')).toBe(true)
  })
  it('does not match another tag, a missing header or an unquoted tag', () => {
    expect(etagMatches('"b"', '"a"')).toBe(false)
    expect(etagMatches('"ab"', '"a"')).toBe(false)
    expect(etagMatches(undefined, '"a"')).toBe(false)
    expect(etagMatches('a', '"a"')).toBe(false)
  })
})
