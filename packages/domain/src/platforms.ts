import { z } from './zod.ts'

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

/** The services GET /api/service/redirect/ hands a client to: the helpdesk and the two cloud services. */
export const SUPPORT_SERVICES = ['freshdesk', 'face-machine', 'nuitrack-analytics'] as const
export type SupportService = (typeof SUPPORT_SERVICES)[number]

/** Helpdesk redirect targets per platform (section 2, help tiles). */
export const SUPPORT_SERVICE: Record<Platform, SupportService> = {
  nuitrack: 'freshdesk',
  face: 'freshdesk',
  'face-machine': 'face-machine',
  'nuitrack-analytics': 'nuitrack-analytics',
}
