import { activityDetailsText, activityKindText, defaultLicenseTitle, isCorporate, toCsv, type ActivityEvent } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { fail } from '../../platform/errors.ts'
import { parseId } from '../../platform/ids.ts'
import { findClientById, toClientInfo } from '../account/service.ts'
import { countClientActivity, listClientActivity, listLicenseActivity, ownsLicense, type ActivityRow } from './queries.ts'

export { recordActivity, recordActivityForLicenses, recordPaid, type NewActivity } from './queries.ts'

export function toActivityView(row: ActivityRow): ActivityEvent {
  return {
    id: Number(row.id),
    kind: row.kind,
    license_id: row.license_id === null ? null : Number(row.license_id),
    license_title: row.license_id === null ? null : (row.license_title ?? defaultLicenseTitle(row.license_product ?? '', Number(row.license_id))),
    group_id: row.group_id === null ? null : Number(row.group_id),
    details: row.details,
    created_at: new Date(row.created_at).toISOString(),
    actor: row.actor_email,
  }
}

/** GET /license/{id}/history/: the client's own license only (another's, a revoked or a malformed id is not found). */
export async function getLicenseHistory(ctx: AppContext, clientId: number, rawId: string) {
  const id = parseId(rawId)
  if (!(await ownsLicense(ctx.db, clientId, id))) fail('not_found')
  return { events: (await listLicenseActivity(ctx.db, clientId, id)).map(toActivityView) }
}

export async function getAccountHistory(ctx: AppContext, clientId: number, page: { offset: number; limit: number }) {
  const [rows, total] = await Promise.all([listClientActivity(ctx.db, clientId, page.offset, page.limit), countClientActivity(ctx.db, clientId)])
  return { events: rows.map(toActivityView), total, offset: page.offset, limit: page.limit }
}

export const HISTORY_CSV_HEADER = ['date', 'event', 'license_id', 'license', 'group_id', 'details', 'actor'] as const

/** The whole history as CSV (newest first), for corporate accounts only. */
export async function exportAccountHistory(ctx: AppContext, clientId: number) {
  const client = (await findClientById(ctx.db, clientId)) ?? fail('unauthorized')
  if (!isCorporate(toClientInfo(client))) fail('history_export_corporate')
  const events = (await listClientActivity(ctx.db, clientId, 0, null)).map(toActivityView)
  // the details in words (activityDetailsText), as a spreadsheet reader reads them, not JSON
  const csv = toCsv([
    HISTORY_CSV_HEADER,
    ...events.map((e) => [e.created_at, activityKindText(e.kind), e.license_id, e.license_title, e.group_id, activityDetailsText(e.details), e.actor]),
  ])
  return { filename: 'activity-history.csv', csv }
}
