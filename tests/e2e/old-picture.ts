// A picture far back in a group's history, never on screen: Grace sends it in `Launch Team`, then
// `AFTER` seeded messages follow it. The pictures and export tests start from here.
import { randomUUID } from 'node:crypto'
import { blankBitmap, setPixel } from '../../src/main/desktop/bitmap'
import { encodePng } from '../../src/main/desktop/png'
import { ServiceRest } from '../support/service-rest'
import { seedHistory } from './long-history'
import type { EndToEnd } from './support'

export const GROUP = 'Launch Team'
/** How many seeded messages follow the picture: more than one page of history. */
export const AFTER = 160
export const PICTURE_TEXT = 'The old sunset picture'

function sunsetPng(): Buffer {
  const bitmap = blankBitmap(30, 20)
  for (let x = 0; x < 30; x += 1) for (let y = 0; y < 20; y += 1) setPixel(bitmap, x, y, [250, 120 + y * 4, 40, 255])
  return encodePng(bitmap)
}

/** Grace uploads the picture (I1), sends it with `PICTURE_TEXT` in `GROUP`, and then `AFTER` seeded messages. */
export async function seedOldPicture(world: EndToEnd, device: string): Promise<void> {
  const rest = new ServiceRest(world.origin, { appId: 'e2e-check' })
  const token = await rest.restToken(world.account('Grace'), device)
  const response = await fetch(`${world.origin}/image/pictures`, { method: 'POST', headers: { 'content-type': 'image/png', 'x-access-token': token }, body: sunsetPng() })
  const pictureUrl = ((await response.json()) as { payload: { url: string } }).payload.url
  const groups = await world.get<{ response: { id: string; name: string }[] }>('/v3/groups?per_page=100', token)
  const group = groups.response.find((candidate) => candidate.name === GROUP)
  await rest.post(`/v3/groups/${group?.id}/messages`, { message: { source_guid: randomUUID(), text: PICTURE_TEXT, attachments: [{ type: 'image', url: pictureUrl }] } }, { token })
  await seedHistory(world, GROUP, AFTER, 'Grace')
}
