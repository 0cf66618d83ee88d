import type { Queryable } from '../../db/db.ts'

/** The SQL of the idempotency keys (idempotency.ts; migration 0017_idempotency_keys.sql). */

/** An installation setting, written by the first caller that offers one and read back by all. */
export async function settingOrInsert(db: Queryable, name: string, offered: string): Promise<string> {
  await db.query('INSERT INTO installation_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, offered])
  const [row] = await db.query<{ value: string }>('SELECT value FROM installation_settings WHERE name = $1', [name])
  return row!.value
}

export interface ProviderRequestRow {
  /** the charge as first sent (JSON; PGlite may answer it as text) */
  request: unknown
  provider_ref: string | null
  generation: number
}

/** The request first sent under a key (written now when this is the first), and the provider's id of it once known. */
export async function pinProviderRequest(db: Queryable, key: string, provider: string, request: unknown): Promise<ProviderRequestRow> {
  await db.query('INSERT INTO provider_requests (idempotency_key, provider, request) VALUES ($1, $2, $3) ON CONFLICT (idempotency_key) DO NOTHING', [
    key,
    provider,
    JSON.stringify(request),
  ])
  const [row] = await db.query<ProviderRequestRow>('SELECT request, provider_ref, generation FROM provider_requests WHERE idempotency_key = $1', [key])
  return row!
}

/** The key's next generation, once: of two processes that saw the same spent generation, one moves it. */
export async function nextGeneration(db: Queryable, key: string, spent: number): Promise<void> {
  await db.query('UPDATE provider_requests SET generation = generation + 1 WHERE idempotency_key = $1 AND generation = $2', [key, spent])
}

/** The provider's id of a keyed charge, the first one it answered. */
export async function setProviderRef(db: Queryable, key: string, ref: string): Promise<void> {
  await db.query('UPDATE provider_requests SET provider_ref = $2 WHERE idempotency_key = $1 AND provider_ref IS NULL', [key, ref])
}
