/** The text of a PDF as a reader extracts it (pdf.js, the parser the server's invoice tests use): one line per text line. */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const doc = await pdfjs.getDocument({ data: pdf, isEvalSupported: false, useSystemFonts: false, verbosity: 0 }).promise
  try {
    const pages: string[] = []
    for (let i = 1; i <= doc.numPages; i++) {
      const content = await (await doc.getPage(i)).getTextContent()
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join(''))
    }
    return pages.join('\n')
  } finally {
    await doc.destroy()
  }
}
