/**
 * Leaving the app for another page (a provider's hosted checkout): one object, so a test can
 * watch where the app sends the browser without jsdom navigating.
 */
export const leave = {
  to(url: string) {
    window.location.assign(url)
  },
}
