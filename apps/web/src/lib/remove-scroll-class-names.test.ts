import { RemoveScroll as library } from 'react-remove-scroll'
import { describe, expect, it } from 'vitest'
import { RemoveScroll } from './remove-scroll-class-names.ts'

describe('the AppShell bars’ stand-in for react-remove-scroll', () => {
  it('names the same classes as the library that modals use', () => {
    expect(RemoveScroll.classNames).toEqual(library.classNames)
  })
})
