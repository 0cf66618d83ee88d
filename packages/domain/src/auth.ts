import { z } from './zod.ts'
import { emailField, idNumber, loosePasswordField, passwordField, text } from './fields.ts'
import { platformSchema } from './platforms.ts'

/** Bodies of the sign-in family calls (spec section 7). */

export const signinBody = z.object({
  username: emailField,
  password: loosePasswordField,
  nuitrack_analytics_login: z.boolean().optional(),
})
export type SigninBody = z.input<typeof signinBody>

/** what the pattern cannot say: the password against the e-mail, which the server checks after the schema */
const NOT_THE_EMAIL = 'must not contain the part of the e-mail before the @ (else password_invalid)'

export const signupBody = z.object({
  username: emailField,
  email: emailField.optional(),
  password: passwordField.describe(
    `8-256 characters of letters, digits and .,:;?!*+%-<>@[]{}\\/_$#, with an upper-case and a lower-case letter and a digit or symbol; ${NOT_THE_EMAIL}`,
  ),
  is_corporate: z.boolean().default(false),
  segment: platformSchema.optional(),
})
export type SignupBody = z.input<typeof signupBody>

/** The password typed twice: the forms that set one add it to their body, checked only in the browser. */
const repeatPassword = { repeat_password: text().min(1, 'password_empty_error') }
const mismatch = { message: 'password_match_error', path: ['repeat_password'] }

/** The registration form: the sign-up body's own fields (the account type always chosen) and the repeat. */
export const registrationForm = signupBody
  .pick({ username: true, password: true })
  .extend({ ...repeatPassword, is_corporate: z.boolean() })
  .refine((v) => v.password === v.repeat_password, mismatch)

export const sendResetBody = z
  .object({
    client_email: emailField.optional(),
    client_id: idNumber().optional(),
    segment: platformSchema.optional(),
  })
  .refine((v) => v.client_email !== undefined || v.client_id !== undefined, {
    message: 'email_empty_error',
    path: ['client_email'],
  })
  .describe('client_email or client_id, one of them at least (else email_empty_error on client_email)')

export const sendConfirmationBody = z.object({
  client_email: emailField,
  segment: platformSchema.optional(),
})

const tokenText = text().regex(/^[A-Za-z0-9_-]{16,128}$/, 'token_invalid')

export const confirmBody = z.object({
  client_id: idNumber(),
  confirmation_token: tokenText,
})

/** the new password's rules the server checks against the account, beyond the pattern */
const newPasswordField = passwordField.describe(
  "not containing the part of the account's e-mail before the @ (else password_contains_email), and not the current password (else new_password_same_as_old)",
)

export const resetPasswordBody = z.object({
  client_id: idNumber(),
  confirmation_token: tokenText,
  new_password: newPasswordField,
})

export const changePasswordBody = z.object({
  old_password: loosePasswordField,
  new_password: newPasswordField,
})

export const setPasswordForm = resetPasswordBody
  .pick({ new_password: true })
  .extend(repeatPassword)
  .refine((v) => v.new_password === v.repeat_password, mismatch)

export const changePasswordForm = changePasswordBody.extend(repeatPassword).refine((v) => v.new_password === v.repeat_password, mismatch)
