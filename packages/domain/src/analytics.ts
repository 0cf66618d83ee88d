import { z } from './zod.ts'
import { emailField, passwordField, text } from './fields.ts'

/** Nuitrack Analytics registration (spec section 2 and 5): e-mail, password, captcha; then fill-info. */
export const analyticsSignupBody = z.object({
  username: emailField,
  password: passwordField,
  captcha_token: text().min(1, 'captcha_required_error').max(4000),
})

const infoText = text().trim().max(256, 'max_length_error:256')

/** Optional name, company and site, each at most 256, at least one of them. */
export const analyticsFillInfoBody = z
  .object({
    username: emailField,
    password: text().min(1).max(256),
    name: infoText.default(''),
    company: infoText.default(''),
    site: infoText.default(''),
  })
  .refine((v) => v.name !== '' || v.company !== '' || v.site !== '', { message: 'fill_info_empty_error', path: ['name'] })
  .describe('name, company or site: one of them at least not blank (else fill_info_empty_error on name)')

/** The proof-of-work captcha (ALTCHA's format): find `number` with sha256(salt + number) = challenge. */
export interface CaptchaChallenge {
  algorithm: 'SHA-256'
  challenge: string
  salt: string
  signature: string
  maxnumber: number
}
