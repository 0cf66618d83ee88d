import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { REQUEST_FILE_MAX_BYTES, decodeBase64, encodeBase64, formatRequestFile, parseLicenseFile, parseRequestFile } from './license-file.ts'

describe('activation request files', () => {
  it('round-trips any fields of allowed shape', () => {
    const field = fc
      .string({ unit: fc.constantFrom(...'ABCxyz0123-_. '.split('')), minLength: 1, maxLength: 40 })
      .map((s) => s.trim())
      .filter(Boolean)
    fc.assert(
      fc.property(field, fc.option(field, { nil: null }), fc.option(field, { nil: null }), (serial, sensor, reg) => {
        expect(parseRequestFile(formatRequestFile({ serial, sensor_name: sensor, reg }))).toEqual({ serial, sensor_name: sensor, reg })
      }),
    )
  })
  it('refuses other headers, unknown or repeated keys, missing serial, over-long values', () => {
    expect(parseRequestFile('hello')).toBeNull()
    expect(parseRequestFile('3DIVI-LICENSE-REQUEST v1\nsensor_name=x')).toBeNull()
    expect(parseRequestFile('3DIVI-LICENSE-REQUEST v1\nserial=1\nevil=2')).toBeNull()
    expect(parseRequestFile('3DIVI-LICENSE-REQUEST v1\nserial=1\nserial=2')).toBeNull()
    expect(parseRequestFile(`3DIVI-LICENSE-REQUEST v1\nserial=${'x'.repeat(257)}`)).toBeNull()
    // what the database cannot store as text
    expect(parseRequestFile('3DIVI-LICENSE-REQUEST v1\nserial=S\u0000N')).toBeNull()
    expect(parseRequestFile('3DIVI-LICENSE-REQUEST v1\nserial=SN\nreg=\ud800')).toBeNull()
    expect(parseRequestFile('\uFEFF3DIVI-LICENSE-REQUEST v1\r\nserial=1\r\n')).toEqual({ serial: '1', sensor_name: null, reg: null })
    const padded = `3DIVI-LICENSE-REQUEST v1\nserial=1\n${'\n'.repeat(REQUEST_FILE_MAX_BYTES)}`
    expect(parseRequestFile(padded)).toBeNull()
  })
  it('base64 round-trips UTF-8 text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(decodeBase64(encodeBase64(s))).toBe(s)
      }),
    )
    expect(decodeBase64(encodeBase64('Ünïcødé ✓'))).toBe('Ünïcødé ✓')
  })
  it('a license file needs three lines and a payload naming the header key', () => {
    expect(parseLicenseFile('one line')).toBeNull()
    const payload = encodeBase64(JSON.stringify({ kid: 'k1abc' }))
    expect(parseLicenseFile(`3DIVI-LICENSE v1 k1abc\n${payload}\nAAAA`)).not.toBeNull()
    expect(parseLicenseFile(`3DIVI-LICENSE v1 other\n${payload}\nAAAA`)).toBeNull()
  })
})
