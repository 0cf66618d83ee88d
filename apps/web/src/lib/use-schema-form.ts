import { useState, type FormEvent } from 'react'
import { schemaResolver, useForm, type LooseKeys, type UseFormReturnType } from '@mantine/form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { ERRORS } from '@portal/domain'
import { ApiError, fieldErrorOf } from './api-client.ts'

/** A form's values: the fields of the body schema the server parses, as the inputs hold them. */
type Values = Record<string, unknown>

export interface SchemaFormOptions<V extends Values> {
  /** a server `field` (the body's whole path) named otherwise in the form (the sign-up's `client_email` is its `username`) */
  rename?: Record<string, LooseKeys<V>>
}

/** Whether a dotted path (`company.name`, `items.0`) leads to a value the form holds. */
function holds(values: unknown, path: string): boolean {
  let at = values
  for (const key of path.split('.')) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, key)) return false
    at = (at as Record<string, unknown>)[key]
  }
  return true
}

export type SchemaForm<V extends Values, Out> = UseFormReturnType<V, Out> & {
  /**
   * The submit handler of every form: validates with the schema (the first input with a problem
   * takes the focus), runs `action` with the parsed body (`form.submitting` is true while it runs),
   * and puts a handled API error on the input its `field` names, or else in `formError` (one the
   * error modal already showed is left alone). `action` rethrows what it does not show itself.
   */
  submit: (action: (body: Out) => Promise<unknown>) => (event?: FormEvent<HTMLFormElement>) => void
  /** a failure that belongs to no input, translated; cleared by the next change or submit */
  formError: string | null
  setFormError: (message: string | null) => void
}

/**
 * The one form hook of the app: `@mantine/form` validated by the zod schema of packages/domain that
 * the server validates the body with. Messages are catalogue keys, translated where the input shows
 * them, so a server code and a schema message read the same.
 */
export function useSchemaForm<V extends Values, Out>(schema: z.ZodType<Out>, initialValues: V, { rename = {} }: SchemaFormOptions<V> = {}): SchemaForm<V, Out> {
  const { t, i18n } = useTranslation()
  const [formError, setFormError] = useState<string | null>(null)
  const translate = (message: unknown) => (typeof message === 'string' && i18n.exists(message) ? t(message) : message)
  const form = useForm<V, Out>({
    initialValues,
    // Mantine's own resolver of Standard Schema, which zod implements
    validate: schemaResolver(schema, { sync: true }),
    transformValues: (values) => schema.parse(values),
    onValuesChange: () => setFormError(null),
    enhanceGetInputProps: ({ inputProps }) => (inputProps.error ? { error: translate(inputProps.error) } : undefined),
  })

  const showServerError = (err: ApiError) => {
    const e = fieldErrorOf(err)
    if (!e) return
    // validation_failed is the code of every refused field: the server's text says which rule
    const fieldText = e.code === ERRORS.validation_failed.code && err.message ? err.message : i18n.exists(e.code) ? e.code : e.message
    const field = e.field ? (rename[e.field] ?? e.field) : undefined
    // the server names a field by its whole path: the error goes to that input, and to no other that
    // shares its last segment (a company's name is not the person's); a known code stays a key,
    // translated where it is shown, and any other text is the server's own
    if (field && holds(form.getValues(), field)) form.setFieldError(field, fieldText)
    else setFormError(e.message)
  }

  const submit = (action: (body: Out) => Promise<unknown>) => (event?: FormEvent<HTMLFormElement>) => {
    // the form element, read now: React clears an event's currentTarget once its handler returns
    const element = event?.currentTarget
    form.onSubmit(
      async (body) => {
        setFormError(null)
        try {
          await action(body)
        } catch (err) {
          // a fault of the page itself is not a refusal to show: it surfaces as an unhandled rejection
          if (!(err instanceof ApiError)) throw err
          showServerError(err)
        }
      },
      // the first input with a problem takes the focus, so the keyboard lands where the fix is
      (errors) => {
        const inputs = Object.keys(errors).map((path) => element?.querySelector<HTMLElement>(`[data-path=${JSON.stringify(path)}]`))
        inputs.find(Boolean)?.focus()
      },
    )(event)
  }

  return { ...form, submit, formError, setFormError }
}
