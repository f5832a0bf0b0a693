import type { Core } from '../core.js'

export interface DemoAccount {
  name: string
  email: string
  phoneNumber: string
  password: string
}

export async function seedDemo(_core: Core): Promise<DemoAccount[]> {
  return []
}
