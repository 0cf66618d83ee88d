import { useCallback, useState, type ChangeEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { fieldErrorOf } from './api-client.ts'

/** The slice of a zod schema the forms use (the schemas live in @portal/domain; `signinForm` is one written without Zod). */
export interface FormSchema<Out> {
  safeParse(value: unknown): { success: true; data: Out } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }
}

export type FieldErrors<V> = Partial<Record<keyof V & string, string>>

/**
 * The form state under `useZodForm`: values, per-field message keys from the shared zod schema,
 * and server codes put on a field.
 */
function useSchemaForm<V extends Record<string, unknown>, Out>(schema: FormSchema<Out>, initial: V) {
  const [values, setValues] = useState<V>(initial)
  const [errors, setErrors] = useState<FieldErrors<V>>({})

  const setValue = useCallback(<K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }))
    setErrors((e) => (e[key as keyof V & string] ? { ...e, [key]: undefined } : e))
  }, [])

  const setFieldError = useCallback((key: keyof V & string, message: string | undefined) => {
    setErrors((e) => ({ ...e, [key]: message }))
  }, [])

  /** Validates everything; returns the parsed value or null after setting the errors. */
  const validate = useCallback((): Out | null => {
    const r = schema.safeParse(values)
    if (r.success) {
      setErrors({})
      return r.data
    }
    const next: FieldErrors<V> = {}
    for (const issue of r.error.issues) {
      const key = String(issue.path[0] ?? '') as keyof V & string
      if (key && !next[key]) next[key] = issue.message
    }
    setErrors(next)
    return null
  }, [schema, values])

  /** Props for a text input bound to `key` (error is a message key: translate before passing on). */
  const text = (key: keyof V & string) => ({
    value: String(values[key] ?? ''),
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValue(key, e.currentTarget.value as V[typeof key]),
  })

  return { values, setValues, setValue, errors, setErrors, setFieldError, validate, text }
}

/**
 * The one form hook of the app: values checked by the shared zod schema of packages/domain,
 * translated errors, a `set` setter and server-error placement (a handled API error lands on its
 * `field` when the form has one, else in `formError`).
 */
export function useZodForm<V extends Record<string, unknown>, Out>(schema: FormSchema<Out>, initial: V) {
  const { t, i18n } = useTranslation()
  const form = useSchemaForm(schema, initial)
  const [formError, setFormError] = useState<string | null>(null)
  const tr = (key: string) => (i18n.exists(key) ? t(key) : key)
  const errors = Object.fromEntries(
    Object.entries(form.errors)
      .filter(([, v]) => typeof v === 'string')
      .map(([k, v]) => [k, tr(v as string)]),
  ) as Partial<Record<keyof V & string, string>>

  /** `rename` maps a server field name to the form's (e.g. email -> username). */
  const showServerError = (err: unknown, rename: Record<string, keyof V & string> = {}) => {
    const e = fieldErrorOf(err)
    if (!e) return
    const field = e.field ? (rename[e.field] ?? e.field) : undefined
    if (field && field in form.values) form.setFieldError(field as keyof V & string, e.code)
    else setFormError(e.message)
  }

  const set = <K extends keyof V>(key: K, value: V[K]) => {
    setFormError(null)
    form.setValue(key, value)
  }

  return {
    values: form.values,
    set,
    /** Props for a text input bound to `key`. */
    text: (key: keyof V & string) => ({
      value: String(form.values[key] ?? ''),
      onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(key, e.currentTarget.value as V[typeof key]),
    }),
    errors,
    setFieldError: form.setFieldError,
    setErrors: form.setErrors,
    setValues: form.setValues,
    validate: () => {
      setFormError(null)
      return form.validate()
    },
    showServerError,
    formError,
    setFormError,
    reset: (values: V) => {
      form.setValues(values)
      form.setErrors({})
      setFormError(null)
    },
  }
}
