/** A Blob's text in a test: jsdom's Blob has no text(), and fetch's blob() answers one of those under jsdom. */
export const readText = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error)
    reader.readAsText(blob)
  })
