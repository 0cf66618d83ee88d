import { ERRORS, apiError, messageFor, type ApiError, type ErrorName } from '@portal/domain'

/** Errors are values: a catalogue name, an optional user-facing text and the field it concerns. */
export class AppError extends Error {
  readonly status: number
  readonly body: ApiError
  constructor(name: ErrorName, message?: string, field?: string) {
    // a message may be a validation key (password_match_error): the body carries its text
    const text = message === undefined ? ERRORS[name].message : messageFor(message)
    super(text)
    this.status = ERRORS[name].status
    this.body = apiError(name, text, field)
  }
}

export const fail = (name: ErrorName, message?: string, field?: string): never => {
  throw new AppError(name, message, field)
}
