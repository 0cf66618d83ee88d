import type { LicenseConfig } from '@portal/domain'
import { columns, type Queryable } from '../../db/db.ts'
import { LICENSE_COLUMNS, type LicenseRecord } from '../licenses/queries.ts'

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

/** When the customer released devices of the license in the last 30 days, oldest first. */
export async function recentCustomerReleases(tx: Queryable, licenseId: number): Promise<Date[]> {
  const rows = await tx.query<{ released_at: Date }>(
    `SELECT released_at FROM devices WHERE license_id = $1 AND release_kind = 'customer'
        AND released_at > now() - interval '30 days' ORDER BY released_at`,
    [licenseId],
  )
  return rows.map((r) => r.released_at)
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

export async function releaseByCustomer(tx: Queryable, deviceId: number): Promise<ReleasedDevice | null> {
  const rows = await tx.query<ReleasedDevice>(
    `UPDATE devices SET released_at = now(), release_kind = 'customer' WHERE id = $1 AND released_at IS NULL RETURNING id, kind, serial, sensor_name, name`,
    [deviceId],
  )
  return rows[0] ?? null
}

/** The live license of a device-API key, locked for the activation. */
export async function lockLicenseByToken(tx: Queryable, token: string): Promise<LicenseRecord | null> {
  const rows = await tx.query<LicenseRecord>(`SELECT ${LICENSE_COLUMNS()} FROM licenses WHERE token = $1 AND revoked_at IS NULL FOR UPDATE`, [token])
  return rows[0] ?? null
}

export async function touchDevice(tx: Queryable, deviceId: number, fingerprint: string, name: string | null) {
  await tx.query('UPDATE devices SET last_seen = now(), fingerprint = $3, name = COALESCE($2, name) WHERE id = $1', [deviceId, name, fingerprint])
}

export type ValidationRow = Pick<LicenseRecord, 'id' | 'status' | 'held_until' | 'expire_date'> & {
  /** the two keys of the config validation reads (a missing key reads as null, as it does in the full config) */
  config: Pick<LicenseRecord['config'], 'paused' | 'online'>
  device_id: number | null
  last_seen: Date | null
}

/** The hot path's one read: the license by key joined to the SDK-bound device of the fingerprint. */
export async function findForValidation(db: Queryable, token: string, fingerprint: string): Promise<ValidationRow | null> {
  const rows = await db.query<ValidationRow>(
    `SELECT l.id, jsonb_build_object('paused', l.config->'paused', 'online', l.config->'online') AS config,
            l.status, l.held_until, l.expire_date, d.id AS device_id, d.last_seen
       FROM licenses l
       LEFT JOIN devices d ON d.license_id = l.id AND d.fingerprint = $2 AND d.released_at IS NULL AND d.kind = 'online'
      WHERE l.token = $1 AND l.revoked_at IS NULL`,
    [token, fingerprint],
  )
  return rows[0] ?? null
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

/** Frees the SDK-bound device of a fingerprint; answers whether there was one. */
export async function releaseBySdk(db: Queryable, licenseId: number, fingerprint: string): Promise<ReleasedDevice | null> {
  const rows = await db.query<ReleasedDevice>(
    `UPDATE devices SET released_at = now(), release_kind = 'sdk'
      WHERE license_id = $1 AND fingerprint = $2 AND kind = 'online' AND released_at IS NULL
      RETURNING id, kind, serial, sensor_name, name`,
    [licenseId, fingerprint],
  )
  return rows[0] ?? null
}
