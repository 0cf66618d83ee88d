import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as fontkit from 'fontkit'
import PDFDocument from 'pdfkit'
import { formatCents, formatCreditNoteNumber, formatInvoiceNumber, type Cents } from '@portal/domain'
import type { Config } from '../../platform/config.ts'

/**
 * The invoice of a paid transaction as a PDF (pdfkit; docs/adr/invoices-with-pdfkit.md says why). The text is real
 * text in an embedded DejaVu Sans subset, so it can be copied and searched, and names in Polish,
 * Greek, Cyrillic, Arabic or Hebrew print as written. A character the font lacks (Chinese,
 * Japanese, most emoji) prints as "?" rather than failing the invoice or leaving an empty box.
 */

export interface InvoiceParty {
  name: string
  address: string
  tax_id: string
  email: string
  /** ISO 3166-1 alpha-2 */
  country: string
}

export interface InvoiceData {
  number: number
  paidAt: Date
  seller: InvoiceParty
  buyer: {
    /** the full name; empty when the client gave none (the e-mail below names them then) */
    name: string
    email: string
    /** for corporate accounts: the company's name, address and tax id (VAT) */
    company: { name: string; address: string; vat: string } | null
  }
  lines: { description: string; quantity: number; amount_cents: Cents; period?: { from: string; to: string } | null }[]
  totalCents: Cents
  paymentMethod: string
  transactionId: number
  /**
   * How the invoice settles, in the prepaid-credit model: a top-up sells prepaid credit and is paid;
   * a purchase from the balance applies that credit (nothing more is due: the money was invoiced
   * with the top-up); a purchase by card or PayPal is paid.
   */
  settlement: InvoiceSettlement
  /** a credit note correcting the invoice `corrects`: the same document, its own number, the amount taken back */
  creditNote?: { number: number; corrects: number; reason: string; kind: 'refund' | 'dispute' | 'reversal' }
}

export type InvoiceSettlement = 'prepaid_credit' | 'credit_applied' | 'paid'

export const PREPAID_CREDIT_LINE = 'Prepaid credit (USD balance)'
export const CREDIT_APPLIED_LINE = 'Prepaid credit applied'

/** placeholders until the operator sets INVOICE_SELLER (the README says so): the tax id is visibly not a real one */
export const DEFAULT_SELLER: InvoiceParty = {
  name: '3DiVi Inc.',
  address: '2810 N Church St\nWilmington, DE 19802, USA',
  tax_id: 'EIN 00-0000000',
  email: 'billing@3divi.com',
  country: 'US',
}

/** The seller on invoices: INVOICE_SELLER laid over the defaults. */
export const invoiceSeller = (config: Pick<Config, 'INVOICE_SELLER'>): InvoiceParty => ({ ...DEFAULT_SELLER, ...config.INVOICE_SELLER })

const require = createRequire(import.meta.url)

interface Fonts {
  regular: Buffer
  bold: Buffer
  /** the regular face, to ask which characters it can draw */
  coverage: fontkit.Font
}

let fonts: Fonts | null = null
function loadFonts(): Fonts {
  if (!fonts) {
    const regular = readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'))
    const bold = readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'))
    fonts = { regular, bold, coverage: fontkit.create(regular) as fontkit.Font }
  }
  return fonts
}

/** the longest a printed field may be: company addresses are up to 999 characters, nothing needs more */
const MAX_FIELD = 1000

/**
 * Text the font can draw: characters it has no glyph for become "?", control characters (other than
 * line breaks) become spaces, lone surrogates become "?". Never throws.
 */
export function printable(text: string): string {
  const { coverage } = loadFonts()
  let out = ''
  for (const ch of text.slice(0, MAX_FIELD)) {
    const cp = ch.codePointAt(0)!
    if (ch === '\n') out += ch
    else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) out += ' '
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '?'
    else out += coverage.hasGlyphForCodePoint(cp) ? ch : '?'
  }
  return out
}

const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
export const formatInvoiceDate = (d: Date) => dateFormat.format(d)

export const REVERSE_CHARGE_NOTE = 'Reverse charge: VAT is to be accounted for by the recipient of this supply.'

/**
 * The country of a VAT id: its two-letter prefix, as EU and UK VAT numbers carry it (Greece's EL is
 * Greece, GR in ISO). Null when the id has none.
 */
export function vatCountry(vat: string): string | null {
  const prefix = /^\s*([A-Za-z]{2})/.exec(vat)?.[1]?.toUpperCase() ?? null
  return prefix === 'EL' ? 'GR' : prefix
}

/** A business buyer with a VAT id of another country than the seller's accounts for the VAT itself. */
export function reverseChargeApplies(data: Pick<InvoiceData, 'seller' | 'buyer'>): boolean {
  const vat = data.buyer.company?.vat.trim() ?? ''
  const country = vatCountry(vat)
  return vat !== '' && country !== null && country !== data.seller.country.toUpperCase()
}

const GREY = '#555555'
const RULE = '#cccccc'

/** Renders the invoice; resolves to the PDF's bytes. */
export async function renderInvoice(data: InvoiceData): Promise<Buffer> {
  const { regular, bold } = loadFonts()
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: data.creditNote
      ? { Title: `Credit note ${formatCreditNoteNumber(data.creditNote.number)}`, Author: printable(data.seller.name), Subject: 'Credit note' }
      : { Title: `Invoice ${formatInvoiceNumber(data.number)}`, Author: printable(data.seller.name), Subject: 'Invoice' },
  })
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  doc.registerFont('regular', regular)
  doc.registerFont('bold', bold)

  const left = doc.page.margins.left
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right
  const half = width / 2 - 10

  // heading: seller's name and the invoice's number and date
  const note = data.creditNote
  doc
    .font('bold')
    .fontSize(22)
    .text(note ? 'Credit note' : 'Invoice', left, 50)
  doc.font('regular').fontSize(10).fillColor(GREY)
  if (note) {
    doc.text(`Credit note number: ${formatCreditNoteNumber(note.number)}`, left, 80)
    doc.text(`Corrects invoice: ${formatInvoiceNumber(note.corrects)}`)
    doc.text(`Date issued: ${formatInvoiceDate(data.paidAt)}`)
  } else {
    doc.text(`Invoice number: ${formatInvoiceNumber(data.number)}`, left, 80)
    doc.text(`Date paid: ${formatInvoiceDate(data.paidAt)}`)
  }
  doc.text(`Transaction: #${data.transactionId}`)
  doc.fillColor('black')

  // the two parties side by side
  const partiesTop = 140
  const party = (title: string, x: number, rows: string[]) => {
    doc.font('bold').fontSize(11).text(title, x, partiesTop, { width: half })
    doc.font('regular').fontSize(10)
    for (const row of rows.filter((r) => r.trim() !== '')) doc.text(printable(row), { width: half })
    return doc.y
  }
  const s = data.seller
  const sellerEnd = party('From', left, [s.name, s.address, s.tax_id ? `Tax ID: ${s.tax_id}` : '', s.email])
  const c = data.buyer.company
  const buyerRows = c
    ? [c.name, c.address, c.vat ? `Tax ID (VAT): ${c.vat}` : '', data.buyer.name ? `Attn: ${data.buyer.name}` : '', data.buyer.email]
    : [data.buyer.name, data.buyer.email]
  const buyerEnd = party('Bill to', left + width / 2 + 10, buyerRows)

  // the lines
  let y = Math.max(sellerEnd, buyerEnd) + 30
  const qtyX = left + width * 0.62
  const amountX = left + width * 0.75
  const amountW = width * 0.25
  const rule = (at: number) =>
    doc
      .moveTo(left, at)
      .lineTo(left + width, at)
      .strokeColor(RULE)
      .lineWidth(1)
      .stroke()
  doc.font('bold').fontSize(10)
  doc.text('Description', left, y, { width: width * 0.6 })
  doc.text('Quantity', qtyX, y, { width: width * 0.12, align: 'right' })
  doc.text('Amount', amountX, y, { width: amountW, align: 'right' })
  y = doc.y + 6
  rule(y)
  y += 8
  doc.font('regular')
  for (const line of data.lines) {
    const description = data.settlement === 'prepaid_credit' ? `${PREPAID_CREDIT_LINE}: ${line.description}` : line.description
    doc.text(printable(description), left, y, { width: width * 0.6 })
    if (line.period) {
      doc
        .fillColor(GREY)
        .fontSize(9)
        .text(`Service period: ${formatInvoiceDate(new Date(line.period.from))} – ${formatInvoiceDate(new Date(line.period.to))}`, { width: width * 0.6 })
      doc.fillColor('black').fontSize(10)
    }
    const end = doc.y
    doc.text(String(line.quantity), qtyX, y, { width: width * 0.12, align: 'right' })
    doc.text(formatCents(line.amount_cents), amountX, y, { width: amountW, align: 'right' })
    y = Math.max(end, doc.y) + 6
    if (y > doc.page.height - 150) {
      doc.addPage()
      y = doc.page.margins.top
    }
  }
  rule(y)
  y += 10
  doc.font('bold').fontSize(12)
  doc.text('Total (USD)', left, y, { width: width * 0.6 })
  doc.text(formatCents(data.totalCents), amountX, y, { width: amountW, align: 'right' })
  y = doc.y + 6
  doc.font('regular').fontSize(10)
  const applied = data.settlement === 'credit_applied' ? data.totalCents : 0
  if (applied > 0) {
    doc.text(CREDIT_APPLIED_LINE, left, y, { width: width * 0.6 })
    doc.text(formatCents(-applied), amountX, y, { width: amountW, align: 'right' })
    y = doc.y + 6
  }
  doc.text(note ? 'Amount taken back' : 'Amount paid', left, y, { width: width * 0.6 })
  doc.text(formatCents(note ? -data.totalCents : data.totalCents - applied), amountX, y, { width: amountW, align: 'right' })
  y = doc.y + 6
  doc.font('bold')
  doc.text('Amount due', left, y, { width: width * 0.6 })
  doc.text(formatCents(0), amountX, y, { width: amountW, align: 'right' })
  y = doc.y + 20

  doc.font('regular').fontSize(10)
  doc.text(`Payment method: ${printable(data.paymentMethod)}`, left, y, { width })
  if (note) {
    const how = { refund: 'Refunded', dispute: 'Disputed by the payer', reversal: 'Reversed by the payment provider' }[note.kind]
    doc.text(`Status: ${how}`)
    doc.text(`Reason: ${printable(note.reason)}`, { width })
  } else doc.text('Status: Paid')
  const reverseCharge = reverseChargeApplies(data)
  if (reverseCharge) {
    doc.moveDown()
    doc.text(REVERSE_CHARGE_NOTE, { width })
  }
  doc.moveDown(2)
  doc
    .fillColor(GREY)
    .fontSize(9)
    .text(`Questions about this invoice: ${printable(s.email)}`, { width })
  doc.end()
  return done
}
