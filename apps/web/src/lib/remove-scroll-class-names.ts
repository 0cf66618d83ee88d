/**
 * What Mantine's AppShell header, footer and aside read of react-remove-scroll: the class names that
 * keep fixed bars clear of the scroll bar a modal removes. The build resolves their import of the
 * library to this module (build-remove-scroll.ts); the library's own values, checked by
 * remove-scroll-class-names.test.ts.
 */
export const RemoveScroll = {
  classNames: { fullWidth: 'width-before-scroll-bar', zeroRight: 'right-scroll-bar-position' },
} as const
