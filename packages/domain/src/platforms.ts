import { z } from 'zod'

export const PLATFORMS = ['nuitrack', 'face', 'face-machine', 'nuitrack-analytics'] as const
export type Platform = (typeof PLATFORMS)[number]
export const platformSchema = z.enum(PLATFORMS)
export const DEFAULT_PLATFORM: Platform = 'nuitrack'

export const PLATFORM_TITLES: Record<Platform, string> = {
  nuitrack: 'Nuitrack',
  face: 'Face SDK',
  'face-machine': 'Face Machine',
  'nuitrack-analytics': 'Nuitrack Analytics',
}

export const isPlatform = (v: unknown): v is Platform => typeof v === 'string' && (PLATFORMS as readonly string[]).includes(v)

/** Helpdesk redirect targets per platform (section 2, help tiles). */
export const SUPPORT_SERVICE: Record<Platform, string> = {
  nuitrack: 'freshdesk',
  face: 'freshdesk',
  'face-machine': 'face-machine',
  'nuitrack-analytics': 'nuitrack-analytics',
}
