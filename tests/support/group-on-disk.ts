// The common ground of the tests that run Ada's app on a real data directory against the real
// service: Ada signed up, a group of hers, and a directory of her own, removed after the test.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestService, TestUser } from '../../server/test/support'
import type { TestScope } from './app-harness'

export interface GroupOnDisk {
  service: TestService
  /** Where Ada's app keeps what it keeps, across its runs in the test. */
  dataDir: string
  ada: TestUser
  /** Quarry, Ada's group. */
  groupId: string
}

/** `label` names the data directory, for whoever finds one left behind. */
export async function groupOnDisk(scope: TestScope, label: string): Promise<GroupOnDisk> {
  const service = await scope.service()
  const dataDir = mkdtempSync(join(tmpdir(), `parley-${label}-`))
  scope.cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const ada = await service.signUp({ name: 'Ada' })
  const groupId = String((await service.createGroup(ada, { name: 'Quarry' })).id)
  return { service, dataDir, ada, groupId }
}
