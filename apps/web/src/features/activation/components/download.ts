import { LICENSE_FILE_NAME, decodeBase64 } from '@portal/domain'

/** Saves the license's signed file (kept base64 in `data`) under the Face SDK license file name. */
export function downloadLicenseFile(data: string) {
  const blob = new Blob([decodeBase64(data)], { type: 'text/plain' })
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = LICENSE_FILE_NAME
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
