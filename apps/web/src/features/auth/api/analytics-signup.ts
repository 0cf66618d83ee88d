import { contractCalls, type ContractBody, type ErrorName, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** A failed or expired captcha: the form draws a new challenge. */
export const CAPTCHA_ERRORS = ['captcha_invalid', 'captcha_missing'] as const satisfies readonly ErrorName[]

export const getCaptchaChallenge = () => call(contractCalls.captchaChallenge, {}, { silent: true })

export const analyticsSignup = (body: ContractBody<typeof contracts.analyticsSignup>) =>
  call(
    contractCalls.analyticsSignup,
    { body },
    {
      handle: ['email_invalid', 'password_invalid', 'validation_failed'],
    },
  )

export const analyticsFillInfo = (body: ContractBody<typeof contracts.analyticsFillInfo>) =>
  call(contractCalls.analyticsFillInfo, { body }, { handle: ['validation_failed'] })
