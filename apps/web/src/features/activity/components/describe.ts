import type { TFunction } from 'i18next'
import { productTitle, type ActivityEvent } from '@portal/domain'
import { formatCents, formatDay } from '../../../lib/format.ts'

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null)
const num = (v: unknown) => (typeof v === 'number' ? v : null)
const productName = (code: unknown, title: unknown) => str(title) ?? (str(code) ? productTitle(code as string) : '')

/** The device a line names: its serial (and sensor), else its name, else its number. */
function deviceOf(d: ActivityEvent['details']) {
  const serial = str(d.serial) ?? str(d.name) ?? (num(d.device_id) !== null ? `#${d.device_id}` : '')
  return { serial, sensor: str(d.sensor) }
}

/** One history line in words ("Renamed from “A” to “B”", "Activated on device SN (sensor)"). */
export function describeActivity(e: ActivityEvent, t: TFunction): string {
  const d = e.details
  switch (e.kind) {
    case 'created':
      if (e.license_id === null) return t('history.granted', { count: num(d.count) ?? 0, product: productName(d.product, d.product_title) })
      if (d.origin === 'trial') return t('history.created_trial', { product: productName(d.product, d.product_title) })
      if (d.origin === 'staff') return t('history.created_staff', { product: productName(d.product, d.product_title) })
      return t('history.created', { product: productName(d.product, d.product_title) })
    case 'generated':
      if (d.origin === 'activation') return t('Generated from a group and activated offline')
      if (d.origin === 'group_key') return t('history.generated_group_key', { group: str(d.group_title) ?? '' })
      return str(d.group_title) ? t('history.generated_named', { group: d.group_title }) : t('Generated from a group')
    case 'renamed':
      return t('history.renamed', { from: str(d.from) ?? '', to: str(d.to) ?? '' })
    case 'activated': {
      const { serial, sensor } = deviceOf(d)
      if (d.channel === 'usb_token') return t('history.activated_usb', { serial })
      return sensor ? t('history.activated_sensor', { serial, sensor }) : t('history.activated', { serial })
    }
    case 'released': {
      if (d.by === 'erasure') return t('Devices released: the paused workspace was erased')
      const { serial, sensor } = deviceOf(d)
      const device = sensor ? `${serial} (${sensor})` : serial
      return d.by === 'sdk' ? t('history.released_sdk', { device }) : t('history.released', { device })
    }
    case 'paused':
      return t('Paused')
    case 'resumed':
      return t('Resumed')
    case 'upgraded': {
      const to = productName(d.to, d.to_title)
      if (e.license_id === null) return t('history.upgraded_group', { count: num(d.count) ?? 0, from: productName(d.from, d.from_title), to })
      return d.trial === true ? t('history.upgraded_trial', { to }) : t('history.upgraded', { from: productName(d.from, d.from_title), to })
    }
    case 'paid':
      return t('history.paid', { amount: formatCents(num(d.amount_cents) ?? 0), what: str(d.description) ?? '' })
    case 'renewed':
      return str(d.until)
        ? t('history.renewed_until', { amount: formatCents(num(d.amount_cents) ?? 0), date: formatDay(d.until as string) })
        : t('history.renewed', { amount: formatCents(num(d.amount_cents) ?? 0) })
    case 'revoked':
      return t('Revoked: the license went back to its group')
    case 'cancelled':
      return str(d.until) ? t('history.cancelled_until', { date: formatDay(d.until as string) }) : t('Subscription cancelled')
    case 'reactivated':
      return d.undo_cancel === true
        ? t('Cancellation undone: the subscription renews again')
        : t('history.reactivated', { amount: formatCents(num(d.amount_cents) ?? 0) })
    case 'suspended':
      return t('history.suspended', { reason: str(d.reason) ?? '' })
    case 'restored':
      return t('history.restored', { reason: str(d.reason) ?? '' })
    case 'group_key_created':
      return t('history.group_key_created', { title: str(d.title) ?? '', count: num(d.size) ?? 0, product: productName(d.product, d.product_title) })
    case 'group_key_resized':
      return t('history.group_key_resized', { title: str(d.title) ?? '', from: num(d.from) ?? 0, to: num(d.to) ?? 0 })
  }
}
