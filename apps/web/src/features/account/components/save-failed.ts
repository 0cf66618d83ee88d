import { errorStore } from '../../../lib/error-store.ts'
import { ApiError, describeFailure } from '../../../lib/api-client.ts'

/** Account save failures show a dialog with the translated text (section 8). */
export const saveFailed = (err: unknown) => {
  if (err instanceof ApiError) errorStore.show(describeFailure(err))
}
