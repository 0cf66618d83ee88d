import { AppError } from './errors.ts'

/** A not-found, malformed or foreign id all answer 63f560db, never another client's data. */
export function parseId(raw: string | number): number {
  const text = String(raw)
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw new AppError('not_found')
  return Number(text)
}
