import { contractCalls, contractUrl } from '@portal/domain'
import { getFile } from '../../../lib/api-client.ts'
import { saveFile } from '../../../lib/save-file.ts'

export const HISTORY_CSV_NAME = 'activity-history.csv'

/** GET /account/history/export/ (corporate accounts): the whole history saved as a CSV file; a failure opens the error dialog. */
export async function exportHistoryCsv() {
  saveFile(await getFile(contractUrl(contractCalls.accountHistoryExport)), HISTORY_CSV_NAME)
}
