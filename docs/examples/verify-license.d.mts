export interface PublicKey {
  kid: string
  public_key: string
  retire_at: string | null
}
export function verifyLicense(text: string, keys: PublicKey[], now?: Date): { ok: boolean; reason?: string; payload?: Record<string, unknown> }
