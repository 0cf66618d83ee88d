/** Hands a file to the browser's downloads under a name, through a short-lived blob link. */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.appendChild(a)
  a.click()
  a.remove()
  // the download has started from the link by now; the blob can go a moment later
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
