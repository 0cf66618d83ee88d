import { LIMITS, checkEmail, isSafeText } from './validation.ts'

/**
 * The sign-in body checked without Zod: the same rules as `signinBody` (auth.ts), written with the
 * plain rules of validation.ts, so the sign-in screen (the first load of most visits) ships no schema
 * library. Apart from auth.ts because the build puts a module whole into one chunk: beside the
 * schemas, it would bring Zod back. signin-form.test.ts holds the two to the same answers.
 */

/** One problem with a value: where (the field's key) and a message key, as Zod reports it. */
export interface SchemaIssue {
  path: PropertyKey[]
  message: string
}

export type SafeParseResult<Out> = { success: true; data: Out } | { success: false; error: { issues: SchemaIssue[] } }

/** The part of a Zod schema a form uses (`safeParse`), for a schema written without Zod. */
export interface PlainSchema<Out> {
  safeParse(value: unknown): SafeParseResult<Out>
}

/** What `signinBody` parses a body to. */
export interface SigninData {
  username: string
  password: string
  nuitrack_analytics_login?: boolean | undefined
}

/** Zod's name for a value's type in its "Invalid input" message (JSON's kinds of value). */
function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

const wrongType = (key: string, expected: string, value: unknown): SchemaIssue => ({
  path: [key],
  message: `Invalid input: expected ${expected}, received ${typeName(value)}`,
})

/** A string field: a type check, then a character the database cannot store, which ends the field's checks (`text()` in fields.ts). */
function textIssue(key: string, value: unknown): SchemaIssue | null {
  if (typeof value !== 'string') return wrongType(key, 'string', value)
  if (!isSafeText(value)) return { path: [key], message: 'text_invalid_character_error' }
  return null
}

/** `emailField`: checkEmail on the raw value, the trimmed value out. */
function emailIssue(key: string, value: unknown): SchemaIssue | null {
  const issue = textIssue(key, value)
  if (issue) return issue
  const error = checkEmail(value as string)
  return error ? { path: [key], message: error } : null
}

/** `loosePasswordField`: present and at most LIMITS.passwordMax. */
function loosePasswordIssue(key: string, value: unknown): SchemaIssue | null {
  const issue = textIssue(key, value)
  if (issue) return issue
  const v = value as string
  if (v.length < 1) return { path: [key], message: 'password_empty_error' }
  if (v.length > LIMITS.passwordMax) return { path: [key], message: 'password_max_length_error' }
  return null
}

/**
 * `signinBody` without Zod: the same issues (paths, message keys, in the same order) and the same
 * parsed value (the e-mail trimmed, unknown keys dropped) for what a form or a JSON body holds.
 */
export const signinForm: PlainSchema<SigninData> = {
  safeParse(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { success: false, error: { issues: [{ path: [], message: `Invalid input: expected object, received ${typeName(value)}` }] } }
    }
    const input = value as Record<string, unknown>
    const flag = input.nuitrack_analytics_login
    const issues = [
      emailIssue('username', input.username),
      loosePasswordIssue('password', input.password),
      flag === undefined || typeof flag === 'boolean' ? null : wrongType('nuitrack_analytics_login', 'boolean', flag),
    ].filter((i): i is SchemaIssue => i !== null)
    if (issues.length > 0) return { success: false, error: { issues } }
    const data: SigninData = { username: (input.username as string).trim(), password: input.password as string }
    if ('nuitrack_analytics_login' in input) data.nuitrack_analytics_login = flag as boolean | undefined
    return { success: true, data }
  },
}
