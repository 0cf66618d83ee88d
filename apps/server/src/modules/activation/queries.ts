import type { LicenseConfig } from '@portal/domain'
import { columns, type Queryable } from '../../db/db.ts'
import { LICENSE_COLUMNS, type LicenseRecord } from '../licenses/service.ts'

export interface DeviceRow {
  id: number
  kind: string
  fingerprint: string | null
  serial: string | null
  sensor_name: string | null
  reg: string | null
  name: string | null
  first_seen: Date
  last_seen: Date | null
}

const DEVICE_COLUMNS = columns<DeviceRow>()('id', 'kind', 'fingerprint', 'serial', 'sensor_name', 'reg', 'name', 'first_seen', 'last_seen')

export async function liveDevices(tx: Queryable, licenseId: number) {
  return tx.query<DeviceRow>(`SELECT ${DEVICE_COLUMNS()} FROM devices WHERE license_id = $1 AND released_at IS NULL ORDER BY id`, [licenseId])
}

export interface NewDevice {
  license_id: number
  kind: 'usb_token' | 'request_file' | 'online'
  fingerprint: string
  serial: string | null
  sensor_name: string | null
  reg: string | null
  name: string | null
}

export async function insertDevice(tx: Queryable, d: NewDevice): Promise<DeviceRow> {
  const rows = await tx.query<DeviceRow>(
    `INSERT INTO devices (license_id, kind, fingerprint, serial, sensor_name, reg, name, last_seen)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now()) RETURNING ${DEVICE_COLUMNS()}`,
    [d.license_id, d.kind, d.fingerprint, d.serial, d.sensor_name, d.reg, d.name],
  )
  return rows[0]!
}

/** Records an activation on the license: the first activation date, the lock it was bound by, and an offline file. */
export async function markActivated(tx: Queryable, licenseId: number, lockType: string, fileBase64?: string) {
  if (fileBase64 === undefined) {
    await tx.query('UPDATE licenses SET activation_date = COALESCE(activation_date, now()), locked_to = $2 WHERE id = $1', [licenseId, lockType])
  } else {
    await tx.query(`UPDATE licenses SET data = $2, activation_date = COALESCE(activation_date, now()), locked_to = $3 WHERE id = $1`, [
      licenseId,
      fileBase64,
      lockType,
    ])
  }
}

export async function liveDeviceExists(tx: Queryable, licenseId: number, deviceId: number): Promise<boolean> {
  const rows = await tx.query('SELECT id FROM devices WHERE id = $1 AND license_id = $2 AND released_at IS NULL', [deviceId, licenseId])
  return rows.length > 0
}

/**
 * The releases of the license in the 30 days before `now` that freed a seat at once and so count
 * against the quota: the customer's, and the SDK's that were within it (seat_until NULL). Oldest first.
 */
export async function recentQuotaReleases(tx: Queryable, licenseId: number, now: Date): Promise<Date[]> {
  const rows = await tx.query<{ released_at: Date }>(
    `SELECT released_at FROM devices WHERE license_id = $1 AND released_at IS NOT NULL
        AND (release_kind = 'customer' OR (release_kind = 'sdk' AND seat_until IS NULL))
        AND released_at > $2::timestamptz - interval '30 days' ORDER BY released_at`,
    [licenseId, now],
  )
  return rows.map((r) => new Date(r.released_at))
}

/** When each seat still held by a released device frees (those held past `now`). */
export async function heldSeats(tx: Queryable, licenseId: number, now: Date): Promise<Date[]> {
  const rows = await tx.query<{ seat_until: Date }>(
    'SELECT seat_until FROM devices WHERE license_id = $1 AND released_at IS NOT NULL AND seat_until > $2 ORDER BY seat_until',
    [licenseId, now],
  )
  return rows.map((r) => new Date(r.seat_until))
}

/** A device released with its seat held comes back: the seat it holds is its own again (freed for the count). */
export async function reclaimHeldSeat(tx: Queryable, licenseId: number, fingerprint: string, now: Date) {
  await tx.query('UPDATE devices SET seat_until = $3 WHERE license_id = $1 AND fingerprint = $2 AND released_at IS NOT NULL AND seat_until > $3', [
    licenseId,
    fingerprint,
    now,
  ])
}

/** Records when the file just issued to a device expires (null: never). */
export async function setFileExpiry(tx: Queryable, deviceId: number, expiresAt: Date | null) {
  await tx.query('UPDATE devices SET file_expires_at = $2 WHERE id = $1', [deviceId, expiresAt])
}

/** Conditional: the SDK may have released the same device a moment ago; answers whether this call did. */
/** The device a release freed (what the history names), or null when there was none. */
export interface ReleasedDevice {
  id: number
  kind: string
  serial: string | null
  sensor_name: string | null
  name: string | null
}

export async function releaseByCustomer(tx: Queryable, deviceId: number, now: Date): Promise<ReleasedDevice | null> {
  const rows = await tx.query<ReleasedDevice>(
    `UPDATE devices SET released_at = $2, release_kind = 'customer' WHERE id = $1 AND released_at IS NULL RETURNING id, kind, serial, sensor_name, name`,
    [deviceId, now],
  )
  return rows[0] ?? null
}

/** The live license of a device-API key, locked for the activation. */
export async function lockLicenseByToken(tx: Queryable, token: string): Promise<LicenseRecord | null> {
  const rows = await tx.query<LicenseRecord>(`SELECT ${LICENSE_COLUMNS()} FROM licenses WHERE token = $1 AND revoked_at IS NULL FOR UPDATE`, [token])
  return rows[0] ?? null
}

/**
 * A group key's device (the device API takes a group key): null when `groupToken` names no group
 * key; else the key's group and client, and the token of the live license of that key that the
 * device of `fingerprint` holds or last held (null when it has none yet).
 */
export async function groupKeyDevice(
  tx: Queryable,
  groupToken: string,
  fingerprint: string,
): Promise<{ group_id: number; client_id: number; license_token: string | null } | null> {
  const rows = await tx.query<{ group_id: number; client_id: number; license_token: string | null }>(
    `SELECT g.id AS group_id, g.client_id, v.token AS license_token
       FROM license_groups g
       LEFT JOIN LATERAL (
         SELECT l.token FROM licenses l
           JOIN devices d ON d.license_id = l.id AND d.fingerprint = $2 AND d.kind = 'online'
          WHERE l.group_id = g.id AND l.revoked_at IS NULL
          ORDER BY d.released_at IS NULL DESC, d.id DESC LIMIT 1
       ) v ON true
      WHERE g.token = $1 AND NOT g.is_default AND g.source_group_id IS NOT NULL`,
    [groupToken, fingerprint],
  )
  const row = rows[0]
  return row ? { group_id: Number(row.group_id), client_id: Number(row.client_id), license_token: row.license_token } : null
}

export async function touchDevice(tx: Queryable, deviceId: number, fingerprint: string, name: string | null) {
  await tx.query('UPDATE devices SET last_seen = now(), fingerprint = $3, name = COALESCE($2, name) WHERE id = $1', [deviceId, name, fingerprint])
}

/**
 * What validation reads, in the cheapest types to decode (epoch milliseconds and booleans, not
 * timestamps and jsonb): this row is decoded once per device-API call.
 */
export interface ValidationRow {
  id: number
  status: number
  /** epoch milliseconds, or null */
  held_until: number | null
  expire_date: number | null
  /** the config's paused and whether it has an online section (a missing key reads as false) */
  paused: boolean
  online: boolean
  device_id: number | null
  last_seen: number | null
}

// whole milliseconds, as a Date made from the timestamp would hold
const epochMs = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)::float8`

/**
 * The hot path's one read: each license by key, joined to the SDK-bound device of its fingerprint,
 * for many checks at once (platform/read-batch.ts). One entry per check, in order; null for a key
 * that matches no live license. The lateral join is an index lookup per check (the unique live
 * token, the unique live fingerprint of a license). The checks come as one JSON parameter, not as
 * arrays: PostgreSQL sizes an array parameter when it plans, so it would plan the statement anew for
 * every call; a JSON set is sized alike for every call, and the prepared statement keeps its plan.
 */
export async function findForValidation(db: Queryable, checks: { key: string; fingerprint: string }[]): Promise<(ValidationRow | null)[]> {
  const rows = await db.query<ValidationRow & { i: number }>(
    `SELECT c.i, v.*
       FROM ROWS FROM (json_to_recordset($1::json) AS (key text, fingerprint text)) WITH ORDINALITY AS c(key, fingerprint, i)
       CROSS JOIN LATERAL (
         SELECT l.id, l.status, ${epochMs('l.held_until')} AS held_until, ${epochMs('l.expire_date')} AS expire_date,
                coalesce(l.config->'paused' = 'true'::jsonb, false) AS paused,
                coalesce(jsonb_typeof(l.config->'online') <> 'null', false) AS online,
                d.id AS device_id, ${epochMs('d.last_seen')} AS last_seen
           FROM licenses l
           LEFT JOIN devices d ON d.license_id = l.id AND d.fingerprint = c.fingerprint AND d.released_at IS NULL AND d.kind = 'online'
          WHERE l.token = c.key AND l.revoked_at IS NULL
       ) v`,
    [JSON.stringify(checks.map((c) => ({ key: c.key, fingerprint: c.fingerprint })))],
  )
  const found: (ValidationRow | null)[] = checks.map(() => null)
  for (const row of rows) found[row.i - 1] ??= row
  return found
}

/**
 * Last seen of many devices in one statement (the device API's coalescing buffer, seen.ts). Kept to
 * the minute, so a chatty SDK does not turn every check into a write.
 */
export async function recordSeenMany(db: Queryable, deviceIds: number[]) {
  await db.query(
    `UPDATE devices SET last_seen = now()
      WHERE id = ANY($1::bigint[]) AND (last_seen IS NULL OR last_seen < now() - interval '1 minute')`,
    [deviceIds],
  )
}

export async function findLicenseConfigByToken(db: Queryable, token: string) {
  const rows = await db.query<{ id: number; client_id: number; config: LicenseConfig }>(
    'SELECT id, client_id, config FROM licenses WHERE token = $1 AND revoked_at IS NULL',
    [token],
  )
  return rows[0] ?? null
}

/** The live SDK-bound device of a fingerprint, with when its last file expires. */
export async function liveSdkDevice(tx: Queryable, licenseId: number, fingerprint: string) {
  const rows = await tx.query<{ id: number; file_expires_at: Date | null }>(
    `SELECT id, file_expires_at FROM devices WHERE license_id = $1 AND fingerprint = $2 AND kind = 'online' AND released_at IS NULL`,
    [licenseId, fingerprint],
  )
  const row = rows[0]
  return row ? { id: Number(row.id), file_expires_at: row.file_expires_at === null ? null : new Date(row.file_expires_at) } : null
}

/**
 * Frees an SDK-bound device at `now`; its seat stays held until `seatUntil` (null: freed at once,
 * within the quota). Conditional: answers the device when this call released it.
 */
export async function releaseBySdk(tx: Queryable, deviceId: number, now: Date, seatUntil: Date | null): Promise<ReleasedDevice | null> {
  const rows = await tx.query<ReleasedDevice>(
    `UPDATE devices SET released_at = $2, release_kind = 'sdk', seat_until = $3
      WHERE id = $1 AND released_at IS NULL
      RETURNING id, kind, serial, sensor_name, name`,
    [deviceId, now, seatUntil],
  )
  return rows[0] ?? null
}
