import { useState, type FormEvent } from 'react'
import { schemaResolver, useForm, type LooseKeys, type UseFormReturnType } from '@mantine/form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { ApiError, fieldErrorOf } from './api-client.ts'

/** A form's values: the fields of the body schema the server parses, as the inputs hold them. */
type Values = Record<string, unknown>

export interface SchemaFormOptions<V extends Values> {
  /** a server `field` named otherwise in the form (the profile's company `site` is its `company.site`) */
  rename?: Record<string, LooseKeys<V>>
}

export type SchemaForm<V extends Values, Out> = UseFormReturnType<V, Out> & {
  /**
   * The submit handler of every form: validates with the schema, runs `action` with the parsed body
   * (`form.submitting` is true while it runs), and puts a handled API error on the input its `field`
   * names, or else in `formError` (one the error modal already showed is left alone). `action`
   * rethrows what it does not show itself.
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
    const field = e.field ? (rename[e.field] ?? e.field) : undefined
    // a known code stays a key, translated where it is shown; any other text is the server's own
    if (field && field.split('.')[0]! in form.getValues()) form.setFieldError(field, i18n.exists(e.code) ? e.code : e.message)
    else setFormError(e.message)
  }

  const submit = (action: (body: Out) => Promise<unknown>) =>
    form.onSubmit(async (body) => {
      setFormError(null)
      try {
        await action(body)
      } catch (err) {
        // a fault of the page itself is not a refusal to show: it surfaces as an unhandled rejection
        if (!(err instanceof ApiError)) throw err
        showServerError(err)
      }
    })

  return { ...form, submit, formError, setFormError }
}
