import { z } from './zod.ts'
import { EMAIL_PATTERN, INT32_MAX, INT32_MIN, LIMITS, PASSWORD_ALLOWED_PATTERN, PASSWORD_KINDS_RE, SAFE_TEXT_RE, checkPassword } from './validation.ts'

// zod wrappers: one definition for the form and the body. Kept apart from validation.ts, whose rules
// the browser's first load needs without Zod (a module goes whole into one chunk of the build).

/**
 * The one building block of every string the API accepts (body fields, record keys, path and query
 * parameters): a string that the database can store. Everything else (length, format) is added on it.
 */
export const text = () =>
  // a pattern, not a refine, so the OpenAPI document says it; abort: the field answers this one
  // error, not also the format rules a NUL happens to break
  z.string().regex(SAFE_TEXT_RE, { message: 'text_invalid_character_error', abort: true })

/**
 * A trimmed text's least length as a pattern over the text before the trim, which is what a client
 * sends and what JSON Schema's minLength would count with its blanks: 1 is "not blank". Checked
 * before the `.trim()` whose `.min()` it states, with the same message.
 */
export const trimmedAtLeast = (n: number) => (n <= 1 ? /\S/ : new RegExp(`^\\s*\\S[\\s\\S]{${n - 2},}\\S\\s*$`))

/**
 * The one building block of every integer the API accepts: whole, and within [min, max], which
 * default to the range of a PostgreSQL `int` so no value the database cannot hold gets that far.
 */
export const boundedInt = (min: number = INT32_MIN, max: number = INT32_MAX) =>
  z.number('integer_error').int('integer_error').min(min, 'number_range_error').max(max, 'number_range_error')

/** A row id in a body or query (`bigint` columns): positive and exact in JS. */
export const idNumber = () =>
  z.coerce.number('integer_error').int('integer_error').min(1, 'number_range_error').max(Number.MAX_SAFE_INTEGER, 'number_range_error')

/**
 * A check that runs only while its field has no issue yet: the refine it replaces answered one issue
 * per field, and aborting instead would also stop a form's rule between fields (the repeated
 * password) from running beside it.
 */
const whileValid = (payload: { issues: readonly unknown[] }) => payload.issues.length === 0
export const firstIssue = (message: string) => ({ message, when: whileValid })
const first = firstIssue

/**
 * checkEmail's rules as checks the OpenAPI document states (the lengths, the pattern), in its order:
 * trimmed, then empty, too long, not an address; the first that fails is the field's one issue.
 */
export const emailField = text()
  .trim()
  .min(1, first('email_empty_error'))
  .max(LIMITS.emailMax, first('email_max_length_error'))
  .regex(EMAIL_PATTERN, first('email_validation_error'))

/** the kinds check's message: the kind missing, as checkPassword names it (zod's string-format params do not list `when`, which it honours) */
const missingKind = { when: whileValid, error: (iss: { input?: unknown }) => checkPassword(String(iss.input)) ?? 'password_all_types_error' }

/**
 * checkPassword's rules as checks the OpenAPI document states, in its order: empty, a symbol it does
 * not allow, the lengths, then the three kinds of character (one pattern of lookaheads, whose message
 * names the kind missing, or all of them when more than one is); the first that fails is the field's
 * one issue.
 */
export const passwordField = text()
  .min(1, first('password_empty_error'))
  .regex(PASSWORD_ALLOWED_PATTERN, first('password_not_available_symbol_error'))
  .min(LIMITS.passwordMin, first('password_min_length_error'))
  .max(LIMITS.passwordMax, first('password_max_length_error'))
  .regex(PASSWORD_KINDS_RE, missingKind)

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
  // 3 to 30 of the phone's characters, the first and the last no blank: the rule on the trimmed text, and
  // (with the blanks around it) on the text as sent, which is what the document shows
  phone: optionalText(LIMITS.phone).regex(/^\s*(?:[+0-9()-][+0-9 ()-]{1,28}[+0-9()-])?\s*$/, 'phone_validation_error'),
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
