import { LICENSE_FILE_NAME, decodeBase64 } from '@portal/domain'
import { saveFile } from '../../../lib/save-file.ts'

/** Saves the license's signed file (kept base64 in `data`) under the Face SDK license file name. */
export function downloadLicenseFile(data: string) {
  saveFile(new Blob([decodeBase64(data)], { type: 'text/plain' }), LICENSE_FILE_NAME)
}
