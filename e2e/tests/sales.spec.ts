import { confirmedAccount, expect, expectAccessible, signIn, test } from '../fixtures.ts'

/** The default contact-sales recipient (DEFAULT_SALES_ADDRESS of the server's config; the e2e server sets no SALES_RECIPIENTS). */
const SALES_ADDRESS = 'sales@portal.local'

interface OutboxMail {
  to: string
  subject: string
  text: string
  reply_to?: string
}

test("a sales message from the Analytics on-premise card reaches the sales recipient, Reply-To the sender's address", async ({ page }) => {
  const client = await confirmedAccount(page.request)
  await signIn(page, client.email)

  await page.goto('/app/nuitrack-analytics/basket/')
  const onPremise = page.getByRole('region', { name: 'On-premise' })
  await onPremise.getByRole('button', { name: 'Contact sales' }).click()
  const dialog = page.getByRole('dialog', { name: /Contact sales/ })
  // the card fills in what the customer asks about; the name and e-mail come from the profile where it has them
  await expect(dialog.getByRole('textbox', { name: 'Details' })).toHaveValue('We would like to run Nuitrack Analytics on our own servers.')
  const replyTo = `buyer-${Date.now().toString(36)}@example.com`
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Dana Buyer')
  await dialog.getByRole('textbox', { name: 'E-mail' }).fill(replyTo)
  await dialog.getByRole('textbox', { name: 'Details' }).fill('We need Nuitrack Analytics on premise for 12 stores, about 40 cameras.')
  await expectAccessible(page, 'contact sales from the on-premise card')
  await dialog.getByRole('button', { name: 'Send' }).click()
  await expect(dialog.getByRole('status')).toContainText(`Our sales team will reply to ${replyTo} within one working day.`)

  // the dev mailbox: the outbox's mail to the sales address
  let mail: OutboxMail | undefined
  for (let i = 0; i < 50 && !mail; i++) {
    const res = await page.request.get(`/dev/mailbox.json?to=${encodeURIComponent(SALES_ADDRESS)}`)
    const { messages } = (await res.json()) as { messages: OutboxMail[] }
    mail = messages.find((m) => m.reply_to === replyTo)
    if (!mail) await new Promise((r) => setTimeout(r, 100))
  }
  expect(mail, 'the sales mail in the dev mailbox').toBeDefined()
  expect(mail!.to).toBe(SALES_ADDRESS)
  expect(mail!.subject).toBe('Contact sales: Dana Buyer')
  expect(mail!.text).toContain(`From: Dana Buyer <${replyTo}>`)
  expect(mail!.text).toContain(`Portal account: ${client.email}`)
  expect(mail!.text).toContain('We need Nuitrack Analytics on premise for 12 stores, about 40 cameras.')

  // the HTML mailbox shows it too, with its Reply-To
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(SALES_ADDRESS)}`)
  const article = page.locator('article').filter({ hasText: `Reply-To ${replyTo}` })
  await expect(article.getByRole('heading', { name: 'Contact sales: Dana Buyer' })).toBeVisible()
  await expect(article).toContainText(`To ${SALES_ADDRESS}`)
})
