import {
  DAY_SECONDS,
  checkActivationLock,
  decodeBase64,
  freeLicenses,
  deviceBinding,
  isOnlineLicense,
  licenseLock,
  encodeBase64,
  isExpired,
  isOnHold,
  parseRequestFile,
  nextQuotaReleaseAt,
  seatCheck,
  seatFreedAt,
  type ActivationAttempt,
  type FileLock,
  type LicenseConfig,
  type LicenseFacts,
  type ValidationCode,
} from '@portal/domain'
import type { AppContext } from '../../context.ts'
import type { Queryable } from '../../db/db.ts'
import { AppError, fail } from '../../platform/errors.ts'
import type { Keyring } from '../../platform/signing.ts'
import { ReadBatch } from '../../platform/read-batch.ts'
import { emitWebhookEvent } from '../webhooks/service.ts'
import {
  findForValidation,
  groupKeyDevice,
  heldSeats,
  insertDevice,
  liveDeviceExists,
  liveDevices,
  lockLicenseByToken,
  liveSdkDevice,
  markActivated,
  reclaimHeldSeat,
  recentQuotaReleases,
  releaseByCustomer,
  releaseBySdk,
  setFileExpiry,
  touchDevice,
  type ValidationRow,
} from './queries.ts'
import { findLicense, toLicenseView, type LicenseRecord } from '../licenses/service.ts'
import { recordActivity } from '../activity/service.ts'
import { generateFromGroup, lockLicense, lockedLicense, parseId } from '../licenses/service.ts'
import { lockClient } from '../account/service.ts'
import { lockedGroup } from '../groups/service.ts'

export type ActivationContext = AppContext

/** Devices a license may have bound at once: max_reactivation_count, at least 1. */
export const seatLimit = (config: LicenseConfig) => Math.max(1, config.max_reactivation_count ?? 1)

/**
 * Signs a file for one device. Online licenses get files that live offline_timeout seconds (a day by
 * default), so a device that stops checking in stops working; offline files live as long as the license.
 */
export function licenseFileFor(
  keyring: Keyring,
  license: Pick<LicenseRecord, 'id' | 'product' | 'config' | 'expire_date'>,
  device: { id: number } | null,
  lock: FileLock,
  now = new Date(),
) {
  const licenseExpires = license.expire_date ? new Date(license.expire_date) : null
  let expires = licenseExpires
  if (license.config.online) {
    const ttl = new Date(now.getTime() + (license.config.online.offline_timeout ?? DAY_SECONDS) * 1000)
    expires = licenseExpires && licenseExpires < ttl ? licenseExpires : ttl
  }
  const text = keyring.sign({
    license_id: license.id,
    product: license.product,
    license_content: license.config.license_content ?? {},
    max_version: license.config.max_version ?? null,
    issued_at: now.toISOString(),
    license_expires_at: licenseExpires?.toISOString() ?? null,
    expires_at: expires?.toISOString() ?? null,
    lock,
    device_id: device?.id ?? null,
  })
  return { text, expiresAt: expires }
}

export interface OfflineActivation {
  data?: string
  hardware_key_serial?: string
}

/** Binds a request file or a USB token to a locked license row and stores the signed file on it. */
async function activateOfflineLocked(ctx: ActivationContext, tx: Queryable, license: LicenseRecord, input: OfflineActivation) {
  const now = ctx.clock.now()
  if (isExpired(license, now) || license.status === 1) fail('license_not_usable', 'The license has expired or is suspended')
  const serial = input.hardware_key_serial?.trim()
  let device: { kind: 'usb_token' | 'request_file'; serial: string; sensor_name: string | null; reg: string | null }
  let attempt: ActivationAttempt
  if (serial) {
    device = { kind: 'usb_token', serial, sensor_name: null, reg: null }
    attempt = { channel: 'usb_token', serial }
  } else {
    // a request file cannot stand in for a USB token: say so before reading the file
    if (licenseLock(license.config).type === 'usb_token') fail('action_unavailable', 'This license is locked to a USB token: enter its serial')
    let text: string
    try {
      text = decodeBase64(input.data!.trim())
    } catch {
      return fail('invalid_license_file', undefined, 'data')
    }
    const request = parseRequestFile(text) ?? fail('invalid_license_file', undefined, 'data')
    device = { kind: 'request_file', ...request }
    attempt = { channel: 'request_file', serial: request.serial, reg: request.reg }
  }
  const decision = checkActivationLock(license.config, attempt)
  if (!decision.ok) return fail('action_unavailable', decision.detail)
  const fingerprint = `${device.kind}:${device.serial}:${device.reg ?? ''}`
  const live = await liveDevices(tx, license.id)
  let bound = live.find((d) => d.fingerprint === fingerprint)
  if (!bound) {
    const seats = seatCheck({ seats: seatLimit(license.config), bound: live.length, heldUntil: await heldSeats(tx, license.id, now), now })
    if (!seats.ok) fail('too_many_devices', seats.retry_at ? `${DETAIL.TOO_MANY_DEVICES}: a seat frees at ${seats.retry_at.toISOString()}` : undefined)
    bound = await insertDevice(tx, {
      license_id: license.id,
      kind: device.kind,
      fingerprint,
      serial: device.serial,
      sensor_name: device.sensor_name,
      reg: device.reg,
      name: device.sensor_name ?? (device.kind === 'usb_token' ? 'USB token' : null),
    })
    const details = { channel: device.kind, device_id: bound.id, serial: device.serial, sensor: device.sensor_name }
    await recordActivity(tx, { clientId: license.client_id, licenseId: license.id, kind: 'activated', details, at: ctx.clock.now() })
    await emitWebhookEvent(ctx, tx, license.client_id, 'device.activated', { license_id: license.id, ...details, name: bound.name })
  }
  const file = licenseFileFor(ctx.keyring, license, bound, decision.lock, now)
  await setFileExpiry(tx, bound.id, file.expiresAt)
  await markActivated(tx, license.id, decision.lock.type, encodeBase64(file.text))
}

function requireInput(input: OfflineActivation) {
  if (!input.data?.trim() && !input.hardware_key_serial?.trim()) throw new AppError('empty_activation')
}

export async function activateLicenseOffline(ctx: ActivationContext, clientId: number, rawId: string, input: OfflineActivation) {
  const id = parseId(rawId)
  requireInput(input)
  await ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const license = await lockedLicense(tx, clientId, id, ctx.clock.now())
    await activateOfflineLocked(ctx, tx, license, input)
  })
  return toLicenseView((await findLicense(ctx.db, clientId, id))!, ctx.clock.now())
}

/** A license made from the group (limit -1) and activated offline at once; a refusal undoes both. */
export async function activateGroupOffline(ctx: ActivationContext, clientId: number, rawId: string, input: OfflineActivation) {
  const id = parseId(rawId)
  requireInput(input)
  const licenseId = await ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    const group = await lockedGroup(tx, clientId, id)
    const newId = await generateFromGroup(tx, clientId, group, { checkUnactivated: false, now: ctx.clock.now(), origin: 'activation' })
    const license = await lockedLicense(tx, clientId, newId, ctx.clock.now())
    await activateOfflineLocked(ctx, tx, license, input)
    return newId
  })
  return toLicenseView((await findLicense(ctx.db, clientId, licenseId))!, ctx.clock.now())
}

/** The customer frees a seat: within the release quota only (3 per license in any 30 days, seats.ts). */
export async function releaseDevice(ctx: AppContext, clientId: number, rawLicenseId: string, rawDeviceId: string) {
  const licenseId = parseId(rawLicenseId)
  const deviceId = parseId(rawDeviceId)
  await ctx.db.transaction(async (tx) => {
    await lockClient(tx, clientId)
    await lockedLicense(tx, clientId, licenseId, ctx.clock.now())
    if (!(await liveDeviceExists(tx, licenseId, deviceId))) fail('not_found', 'Device not found')
    const now = ctx.clock.now()
    const next = nextQuotaReleaseAt(await recentQuotaReleases(tx, licenseId, now), now)
    if (next) fail('release_limit', `A license allows 3 device releases in any 30 days. The next release is possible on ${next.toISOString().slice(0, 10)}`)
    const device = (await releaseByCustomer(tx, deviceId, now)) ?? fail('not_found', 'Device not found')
    const details = { by: 'customer', channel: device.kind, device_id: device.id, serial: device.serial, sensor: device.sensor_name }
    await recordActivity(tx, { clientId, licenseId, kind: 'released', details, at: ctx.clock.now() })
    await emitWebhookEvent(ctx, tx, clientId, 'device.released', { license_id: licenseId, ...details })
  })
  return toLicenseView((await findLicense(ctx.db, clientId, licenseId))!, ctx.clock.now())
}

// ---- the device API (SDKs): no session, keyed by the license token ----

/** Why a license cannot be used now, if it cannot; `paused` is the config's. */
function refusal(license: (Pick<LicenseFacts, 'held_until' | 'expire_date' | 'status'> & { paused: unknown }) | null, now: Date): ValidationCode | null {
  if (!license) return 'NOT_FOUND'
  if (isOnHold(license, now)) return 'ON_HOLD'
  if (license.status === 1) return 'SUSPENDED'
  if (isExpired(license, now)) return 'EXPIRED'
  if (license.paused) return 'PAUSED'
  return null
}

const DETAIL: Record<ValidationCode, string> = {
  VALID: 'The license is valid on this device',
  NOT_FOUND: 'No license with this key',
  NOT_ACTIVATED: 'This device is not activated for the license',
  TOO_MANY_DEVICES: 'All devices this license allows are in use',
  EXPIRED: 'The license has expired',
  SUSPENDED: 'The license is suspended',
  PAUSED: 'The subscription is paused',
  ON_HOLD: 'The license is on hold while it is being upgraded',
  OFFLINE_LICENSE: 'This license works offline: activate it on the portal with a request file or its USB token',
  LOCK_MISMATCH: "The activation does not satisfy the license's lock",
}

export class SdkRefusal extends Error {
  readonly code: ValidationCode
  readonly status: number
  /** when what refused it may pass: a held seat frees */
  readonly retryAt: Date | null

  constructor(code: ValidationCode, status: number, detail?: string, retryAt: Date | null = null) {
    super(detail ?? DETAIL[code])
    this.code = code
    this.status = status
    this.retryAt = retryAt
  }
}

const SDK_STATUS: Record<ValidationCode, number> = {
  VALID: 200,
  NOT_FOUND: 404,
  NOT_ACTIVATED: 403,
  TOO_MANY_DEVICES: 409,
  EXPIRED: 403,
  SUSPENDED: 403,
  PAUSED: 403,
  ON_HOLD: 409,
  OFFLINE_LICENSE: 403,
  LOCK_MISMATCH: 403,
}

export interface SdkActivation {
  key: string
  fingerprint: string
  name?: string
  properties?: { serial?: string; sensor_name?: string; reg?: string }
  /** what a locked license asks for: its hardware id, its USB token's serial, its app id */
  hardware_id?: string
  usb_token?: string
  app_id?: string
}

const refuse = (code: ValidationCode, detail?: string, retryAt: Date | null = null): never => {
  throw new SdkRefusal(code, SDK_STATUS[code], detail, retryAt)
}

/**
 * Binds a device by fingerprint (idempotent) and answers a fresh signed file: online licenses only,
 * and only an activation that satisfies the license's lock (checkActivationLock). A device of a
 * hardware or USB-token lock is bound to that value: the same fingerprint must present it again, and
 * the same value from a new fingerprint is the same device (re-installed software on one machine).
 */
export async function sdkActivate(ctx: ActivationContext, body: SdkActivation) {
  const now = ctx.clock.now()
  return ctx.db.transaction(async (tx) => {
    const license = (await lockLicenseByToken(tx, body.key)) ?? (await groupKeyLicense(tx, body, now))
    const refused = refusal(license && { ...license, paused: license.config.paused }, now)
    if (refused) refuse(refused)
    const l = license!
    const p = body.properties ?? {}
    const decision = checkActivationLock(l.config, {
      channel: 'sdk',
      fingerprint: body.fingerprint,
      hardware_id: body.hardware_id ?? p.reg ?? null,
      usb_token: body.usb_token ?? null,
      app_id: body.app_id ?? null,
    })
    if (!decision.ok) return refuse(decision.code, decision.detail)
    const lock = licenseLock(l.config)
    const live = await liveDevices(tx, l.id)
    let device = live.find((d) => d.fingerprint === body.fingerprint)
    if (device && device.kind !== 'online') refuse('LOCK_MISMATCH', 'This fingerprint names a device bound offline on the portal')
    if (device && decision.binding !== null && deviceBinding(lock, device) !== decision.binding) {
      refuse('LOCK_MISMATCH', `This device is bound to another ${lock.type === 'usb_token' ? 'USB token' : 'hardware id'}`)
    }
    device ??= decision.binding === null ? undefined : live.find((d) => d.kind === 'online' && deviceBinding(lock, d) === decision.binding)
    if (device) {
      await touchDevice(tx, device.id, body.fingerprint, body.name ?? null)
    } else {
      // the same machine back on a seat it still holds takes that seat again
      await reclaimHeldSeat(tx, l.id, body.fingerprint, now)
      const seats = seatCheck({ seats: seatLimit(l.config), bound: live.length, heldUntil: await heldSeats(tx, l.id, now), now })
      if (!seats.ok) {
        const at = seats.retry_at
        refuse(
          'TOO_MANY_DEVICES',
          at ? `${DETAIL.TOO_MANY_DEVICES}: a released device keeps its seat until its file expires, at ${at.toISOString()}` : undefined,
          at,
        )
      }
      // the device row keeps the value it is bound to where deviceBinding reads it
      const serial = lock.type === 'usb_token' ? decision.binding : (p.serial ?? null)
      const reg = lock.type === 'hardware_id' ? decision.binding : (p.reg ?? null)
      device = await insertDevice(tx, {
        license_id: l.id,
        kind: 'online',
        fingerprint: body.fingerprint,
        serial,
        sensor_name: p.sensor_name ?? null,
        reg,
        name: body.name ?? null,
      })
      const details = { channel: 'sdk', device_id: device.id, serial: p.serial ?? serial, sensor: p.sensor_name ?? null, name: body.name ?? null }
      await recordActivity(tx, { clientId: l.client_id, licenseId: l.id, kind: 'activated', details, at: now })
      await emitWebhookEvent(ctx, tx, l.client_id, 'device.activated', { license_id: l.id, ...details })
    }
    await markActivated(tx, l.id, decision.lock.type)
    const file = licenseFileFor(ctx.keyring, l, device, decision.lock, now)
    await setFileExpiry(tx, device.id, file.expiresAt)
    return {
      license_key: l.token,
      license_file: file.text,
      expires_at: file.expiresAt?.toISOString() ?? null,
      device: { id: device.id, name: body.name ?? device.name, fingerprint: body.fingerprint, first_seen: new Date(device.first_seen).toISOString() },
    }
  })
}

/**
 * A device activating with a group key gets a license of its own from the key's capacity: the one
 * this fingerprint already holds (or last held), else a new one generated from the group, titled by
 * the device's name. Null when the key is no group key. Under the client's lock (taken first, as
 * everywhere), so parallel activations of one device make one license and never overdraw the key.
 */
async function groupKeyLicense(tx: Queryable, body: SdkActivation, now: Date): Promise<LicenseRecord | null> {
  const key = await groupKeyDevice(tx, body.key, body.fingerprint)
  if (!key) return null
  await lockClient(tx, key.client_id)
  const group = await lockedGroup(tx, key.client_id, key.group_id)
  // read again under the lock: a parallel activation of this device may have made its license
  const held = (await groupKeyDevice(tx, body.key, body.fingerprint))?.license_token
  if (held) return lockLicenseByToken(tx, held)
  if (freeLicenses(group, now) < 1) refuse('TOO_MANY_DEVICES', 'Every license of this group key is in use: make the key larger on the portal')
  const id = await generateFromGroup(tx, key.client_id, group, { title: body.name ?? null, checkUnactivated: false, now, origin: 'group_key' })
  return lockLicense(tx, key.client_id, id)
}

/** The license a group key's device holds, or the license of a license key: what deactivation frees. */
async function licenseOfKey(tx: Queryable, key: string, fingerprint: string): Promise<LicenseRecord | null> {
  const license = await lockLicenseByToken(tx, key)
  if (license) return license
  const held = (await groupKeyDevice(tx, key, fingerprint))?.license_token
  return held ? lockLicenseByToken(tx, held) : null
}

/** What the SDK presents to validation: its license key and the fingerprint of its device. */
export interface SdkCheck {
  key: string
  fingerprint: string
}

/**
 * Validation's reads, coalesced (platform/read-batch.ts): the checks that arrive while a read is out
 * go together as one statement, each still answered by an index lookup of its own.
 */
export function validationReader(db: Queryable) {
  const batch = new ReadBatch((checks: SdkCheck[]) => findForValidation(db, checks))
  // a key no license has may be a group key: the license its device holds answers (a second read,
  // off the license keys' path); a group key the device has not activated is NOT_ACTIVATED
  return async (check: SdkCheck): Promise<ValidationRow | null> => {
    const found = await batch.load(check)
    if (found) return found
    const key = await groupKeyDevice(db, check.key, check.fingerprint)
    if (!key) return null
    const held = key.license_token === null ? null : (await findForValidation(db, [{ key: key.license_token, fingerprint: check.fingerprint }]))[0]
    return held ?? { id: 0, status: 0, held_until: null, expire_date: null, paused: false, online: true, device_id: null, last_seen: null }
  }
}

/**
 * The device API's hot path: one indexed read (the license by its token, joined to the device of the
 * fingerprint, through `read`: validationReader) and nothing else on the way to the answer. A last
 * seen older than a minute is handed to `seen` (the coalescing buffer of seen.ts), which writes it
 * off the request path. Only devices the SDK bound count: an offline-bound device is checked
 * against its file, not here.
 */
export async function sdkValidate(read: (check: SdkCheck) => Promise<ValidationRow | null>, check: SdkCheck, now: Date, seen: (deviceId: number) => void) {
  const license = await read(check)
  const code: ValidationCode = refusal(license, now) ?? (!license!.online ? 'OFFLINE_LICENSE' : license!.device_id === null ? 'NOT_ACTIVATED' : 'VALID')
  if (code === 'VALID' && (license!.last_seen === null || now.getTime() - license!.last_seen > 60_000)) seen(license!.device_id!)
  return {
    valid: code === 'VALID',
    code,
    detail: DETAIL[code],
    expires_at: license?.expire_date != null ? new Date(license.expire_date).toISOString() : null,
  }
}

/**
 * Frees a device the SDK bound, on an online license only. Its seat frees at once while the release
 * quota allows (3 in any 30 days, shared with the customer's releases); past it, the seat stays
 * held until the device's last file expires (seats.ts). An offline file never expires, so a device
 * bound offline is freed only by the customer's release.
 */
export async function sdkDeactivate(ctx: ActivationContext, key: string, fingerprint: string) {
  const now = ctx.clock.now()
  const released = await ctx.db.transaction(async (tx) => {
    const license = await licenseOfKey(tx, key, fingerprint)
    if (license && !isOnlineLicense(license.config)) refuse('OFFLINE_LICENSE')
    const found = license && (await liveSdkDevice(tx, license.id, fingerprint))
    if (!license || !found) return null
    const seat = seatFreedAt({ recentReleases: await recentQuotaReleases(tx, license.id, now), fileExpiresAt: found.file_expires_at, now })
    const device = await releaseBySdk(tx, found.id, now, seat.quota ? null : seat.at)
    if (!device) return null
    const details = {
      by: 'sdk',
      channel: 'sdk',
      device_id: device.id,
      serial: device.serial,
      sensor: device.sensor_name,
      seat_until: seat.quota ? null : seat.at.toISOString(),
    }
    await recordActivity(tx, { clientId: license.client_id, licenseId: license.id, kind: 'released', details, at: now })
    await emitWebhookEvent(ctx, tx, license.client_id, 'device.released', { license_id: license.id, ...details })
    return device
  })
  if (!released) throw new SdkRefusal('NOT_ACTIVATED', 404)
  return { status: 'ok' as const, released: true }
}
