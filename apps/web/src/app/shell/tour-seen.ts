/** Whether this browser has shown the onboarding tour to the client with this e-mail (localStorage). */
const seenKey = (email: string) => `portal.tour.seen.${email}`
export const tourSeen = (email: string) => localStorage.getItem(seenKey(email)) !== null
export const markTourSeen = (email: string) => localStorage.setItem(seenKey(email), new Date().toISOString())
