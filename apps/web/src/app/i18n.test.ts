import { describe, expect, it } from 'vitest'
import { ERRORS, LIMITS, VALIDATION_MESSAGES, allMessages } from '@portal/domain'
import { initI18n, resources } from './i18n.ts'

/** The web shows message keys and error codes through i18next: each must have English text there. */
describe('the English catalogue', () => {
  const i18n = initI18n()

  it('holds every message key and error code of the domain', () => {
    const catalogue = resources.en.translation as Record<string, string>
    const missing = Object.keys(allMessages()).filter((k) => !catalogue[k])
    expect(missing).toEqual([])
  })

  it('translates each validation key, each error code and each length limit to text, never to the key', () => {
    for (const key of Object.keys(VALIDATION_MESSAGES)) expect(i18n.t(key), key).not.toBe(key)
    for (const e of Object.values(ERRORS)) expect(i18n.t(e.code), e.code).not.toBe(e.code)
    for (const n of new Set(Object.values(LIMITS))) expect(i18n.t(`max_length_error:${n}`)).toBe(`Must be at most ${n} characters`)
    expect(i18n.t('license_title_max_length_error')).toBe('The title must be at most 256 characters')
  })
})
