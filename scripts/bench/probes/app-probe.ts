// Loaded into a browser-mode app's process by `npm run bench` (built to plain JavaScript by
// `buildAppProbe`, then `node --import <it>`): timestamps a bench message where the push connection
// receives it and where the host sends it to the page as a `messages:received` event frame.
import { subscribe } from 'node:diagnostics_channel'
import { BRIDGE_EVENT_SENT_CHANNEL } from '../../../src/main/browser/host'
import { PUSH_DELIVERY_CHANNEL } from '../../../src/main/push/push-connection'
import { recordPushes, startRecorder } from './recorder'
import { BENCH_TEXT_PREFIX, epochNow } from './records'

const records = startRecorder()

recordPushes(records, PUSH_DELIVERY_CHANNEL, 'delivered')

subscribe(BRIDGE_EVENT_SENT_CHANNEL, (message) => {
  const at = epochNow()
  const { event, payload } = message as { event: string; payload: { text?: unknown } }
  if (event !== 'messages:received' || typeof payload.text !== 'string' || !payload.text.startsWith(BENCH_TEXT_PREFIX)) return
  records.push([at, 'bridged', payload.text, event])
})
