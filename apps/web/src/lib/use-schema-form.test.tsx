import { act, renderHook, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ERRORS, changePasswordForm, signinBody, updateClientBody } from '@portal/domain'
import { initI18n } from '../app/i18n.ts'
import { ApiError } from './api-client.ts'
import { useSchemaForm } from './use-schema-form.ts'

const refusal = (code: string, field?: string, message = 'the server says no') => new ApiError({ status: 400, code, message, field, shown: false })
const i18n = initI18n()
/** what an input shows for a message key: its translation */
const shown = (key: string) => i18n.t(key)

describe('useSchemaForm', () => {
  it('validates with the shared schema, the first problem of each field, translated where the input shows it', () => {
    const { result } = renderHook(() => useSchemaForm(changePasswordForm, { old_password: '', new_password: 'short', repeat_password: 'other' }))
    act(() => void result.current.validate())
    expect(result.current.errors).toEqual({
      old_password: 'password_empty_error',
      new_password: 'password_min_length_error',
      repeat_password: 'password_match_error',
    })
    expect(result.current.getInputProps('old_password').error).toBe(shown('password_empty_error'))
  })

  it("puts a refusal on the input its field names, and one without a field (or with another form's field) above the inputs", async () => {
    let answer: ApiError = refusal(ERRORS.wrong_password.code, 'password')
    const { result } = renderHook(() => useSchemaForm(signinBody, { username: 'ann@example.com', password: 'Secret-1' }))
    const submit = () => act(async () => result.current.submit(() => Promise.reject(answer))())

    await submit()
    expect(result.current.errors).toEqual({ password: ERRORS.wrong_password.code })
    expect(result.current.getInputProps('password').error).toBe(shown(ERRORS.wrong_password.code))
    expect(result.current.formError).toBeNull()

    answer = refusal(ERRORS.validation_failed.code, 'captcha_token')
    await submit()
    expect(result.current.formError).toBe(shown(ERRORS.validation_failed.code))

    // a change clears it
    act(() => result.current.setFieldValue('username', 'bob@example.com'))
    expect(result.current.formError).toBeNull()
  })

  it('puts a refusal of a nested field at the input of its whole path, not at one sharing its last segment', async () => {
    const schema = updateClientBody.pick({ name: true, company: true })
    const { result } = renderHook(() => useSchemaForm(schema, { name: 'Ann', company: { name: 'Acme' } }))
    const submit = (field: string) => act(async () => result.current.submit(() => Promise.reject(refusal(ERRORS.validation_failed.code, field)))())

    // validation_failed is every refused field's code: the input shows the server's text, which names the rule
    await submit('company.name')
    expect(result.current.errors).toEqual({ 'company.name': 'the server says no' })
    await submit('name')
    expect(result.current.errors).toEqual({ name: 'the server says no' })
    // a path the form does not hold is a failure of the whole form
    await submit('company.site')
    expect(result.current.errors).toEqual({})
    expect(result.current.formError).toBe(shown(ERRORS.validation_failed.code))
  })

  it('renames a server field the form calls otherwise, and leaves an error the modal showed alone', async () => {
    const { result } = renderHook(() =>
      useSchemaForm(signinBody, { username: 'ann@example.com', password: 'Secret-1' }, { rename: { client_email: 'username' } }),
    )
    await act(async () => result.current.submit(() => Promise.reject(refusal(ERRORS.client_not_found_by_email.code, 'client_email')))())
    expect(result.current.errors).toEqual({ username: ERRORS.client_not_found_by_email.code })

    act(() => result.current.clearErrors())
    const shownByModal = new ApiError({ status: 500, code: 'internal_server_error', message: 'x', shown: true })
    await act(async () => result.current.submit(() => Promise.reject(shownByModal))())
    expect(result.current.errors).toEqual({})
    expect(result.current.formError).toBeNull()
  })

  it('hands the parsed body to the action and is submitting until it settles', async () => {
    let finish!: () => void
    let body: unknown
    const { result } = renderHook(() => useSchemaForm(signinBody, { username: ' ann@example.com ', password: 'Secret-1' }))
    act(() =>
      result.current.submit((parsed) => {
        body = parsed
        return new Promise<void>((r) => (finish = r))
      })(),
    )
    expect(body).toEqual({ username: 'ann@example.com', password: 'Secret-1' })
    expect(result.current.submitting).toBe(true)
    await act(async () => finish())
    await waitFor(() => expect(result.current.submitting).toBe(false))
  })
})
