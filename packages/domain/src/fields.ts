import { z } from 'zod'
import { INT32_MAX, INT32_MIN, LIMITS, checkEmail, checkPassword, isSafeText } from './validation.ts'

// zod wrappers: one definition for the form and the body. Kept apart from validation.ts, whose rules
// the browser's first load needs without Zod (a module goes whole into one chunk of the build).

/**
 * The one building block of every string the API accepts (body fields, record keys, path and query
 * parameters): a string that the database can store. Everything else (length, format) is added on it.
 */
export const text = () =>
  // abort: the field answers this one error, not also the format rules a NUL happens to break
  z.string().refine(isSafeText, { message: 'text_invalid_character_error', abort: true })

/**
 * The one building block of every integer the API accepts: whole, and within [min, max], which
 * default to the range of a PostgreSQL `int` so no value the database cannot hold gets that far.
 */
export const boundedInt = (min: number = INT32_MIN, max: number = INT32_MAX) =>
  z.number('integer_error').int('integer_error').min(min, 'number_range_error').max(max, 'number_range_error')

/** A row id in a body or query (`bigint` columns): positive and exact in JS. */
export const idNumber = () =>
  z.coerce.number('integer_error').int('integer_error').min(1, 'number_range_error').max(Number.MAX_SAFE_INTEGER, 'number_range_error')

export const emailField = text()
  .superRefine((v, ctx) => {
    const e = checkEmail(v)
    if (e) ctx.addIssue({ code: 'custom', message: e })
  })
  .trim()

export const passwordField = text().superRefine((v, ctx) => {
  const e = checkPassword(v)
  if (e) ctx.addIssue({ code: 'custom', message: e })
})

/** Sign-in and current-password fields only need presence and the maximum. */
export const loosePasswordField = text().min(1, 'password_empty_error').max(LIMITS.passwordMax, 'password_max_length_error')

// `.trim()`, not a transform: Zod runs it both ways, so a schema that parses a body can also encode
// an answer that holds the same fields (the server's serializer encodes)
const optionalText = (max: number) =>
  text()
    // abort: a text over the limit answers that alone, not also the rules a caller adds after it
    .max(max, { message: `max_length_error:${max}`, abort: true })
    .trim()

export const profileFields = {
  name: optionalText(LIMITS.name),
  last_name: optionalText(LIMITS.lastName),
  phone: optionalText(LIMITS.phone).refine((v) => v === '' || /^[+0-9 ()-]{3,30}$/.test(v), 'phone_validation_error'),
  position: optionalText(LIMITS.position),
}

export const companySchema = z.object({
  name: optionalText(LIMITS.companyName),
  address: optionalText(LIMITS.companyAddress),
  vat: optionalText(LIMITS.companyVat),
  type: optionalText(LIMITS.companyType),
  site: optionalText(LIMITS.companySite),
  position: optionalText(LIMITS.position),
})
export type Company = z.infer<typeof companySchema>
