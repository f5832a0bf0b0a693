// Loaded into the service's process by `npm run bench` (`node --import tsx --import <this>`):
// timestamps each `line.create` of a bench message as the service publishes it on a channel.
import { subscribe } from 'node:diagnostics_channel'
import { PUSH_PUBLISHED_CHANNEL } from '../../../server/src/push/publisher'
import { benchTextOfPush, startRecorder } from './recorder'
import { BENCH_TEXT_PREFIX, epochNow } from './records'

const records = startRecorder()

subscribe(PUSH_PUBLISHED_CHANNEL, (message) => {
  const at = epochNow()
  const { channel, data } = message as { channel: string; data: unknown }
  const text = benchTextOfPush(data, BENCH_TEXT_PREFIX)
  if (text !== null) records.push([at, 'published', text, channel])
})
