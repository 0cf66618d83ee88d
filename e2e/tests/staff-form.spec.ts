import { confirmedAccount, expect, expectAccessible, portal, screenshots, signIn, test } from '../fixtures.ts'

/** The staff form for custom licenses: reached from the menu, its errors at their fields, and closed to customers. */

test('staff: the menu link opens the staff form, the subscription tab works, errors sit at their fields', async ({ page }) => {
  const staff = await confirmedAccount(page.request)
  await portal('staff:grant', staff.email)
  await signIn(page, staff.email)
  await page.goto('/app/nuitrack/dashboard/')
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Staff: custom licenses' }).click()
  await expect(page).toHaveURL(/\/app\/staff\/custom-license\/perpetual\/$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Custom licenses' })).toBeVisible()
  await expect(page).toHaveTitle('Custom perpetual licenses · 3DiVi Portal')

  await page.getByRole('tab', { name: 'Custom subscription license' }).click()
  await expect(page).toHaveURL(/\/app\/staff\/custom-license\/subscription\/$/)
  await expect(page.getByRole('tab', { name: 'Custom subscription license' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0)
  await expect(page).toHaveTitle('Custom subscription licenses · 3DiVi Portal')

  // components by name, not by identifier
  await expect(page.getByRole('textbox', { name: 'Age and gender estimator' })).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Liveness 2D estimator' })).toBeVisible()
  await expect(page.getByText('age gender estimator')).toHaveCount(0)

  // an empty submit: the errors at their fields, in words
  await page.getByRole('button', { name: 'Create' }).click()
  const title = page.getByRole('textbox', { name: 'Title' })
  await expect(title).toHaveAttribute('aria-invalid', 'true')
  await expect(title).toHaveAccessibleDescription('This field is required')
  await expect(title).toBeFocused()
  await expect(page.getByRole('textbox', { name: 'User e-mail' })).toHaveAccessibleDescription('Please enter your email')
  await expect(page.getByText('title: field empty error')).toHaveCount(0)
  await expect(page.getByTestId('staff-result')).toBeEmpty()
  await expectAccessible(page, 'staff-form-errors')
  await screenshots(page, 'staff-form-errors')

  // a real creation says so
  await title.fill('Door cameras')
  await page.getByRole('textbox', { name: 'User e-mail' }).fill(staff.email)
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByTestId('staff-result')).toHaveText('Added 1 license(s).')
  await expect(page.getByRole('alert').filter({ hasText: 'Licenses created' })).toBeVisible()
})

test('a customer on the staff address sees a plain staff-only screen', async ({ page }) => {
  const customer = await confirmedAccount(page.request)
  await signIn(page, customer.email)
  await page.goto('/app/staff/custom-license/perpetual/')
  await expect(page.getByRole('heading', { level: 1, name: 'This page is for staff' })).toBeVisible()
  await expect(page.getByText(/npm|staff:grant/)).toHaveCount(0)
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Staff: custom licenses' })).toHaveCount(0)
  await expectAccessible(page, 'staff-only')
  await screenshots(page, 'staff-only')
})
