import { Alert } from '@mantine/core'

/** A form's failure that belongs to none of its inputs (`formError` of useSchemaForm), shown the same in every form. */
export function FormError({ message, title, testId }: { message: string | null; title?: string; testId?: string }) {
  if (!message) return null
  return (
    <Alert color="red" role="alert" title={title} data-testid={testId}>
      {message}
    </Alert>
  )
}
