// Loaded into the service's process by `npm run bench` (`node --import tsx --import <this>`):
// timestamps each `line.create` of a bench message as the service publishes it on a channel.
import { PUSH_PUBLISHED_CHANNEL } from '../../../server/src/push/publisher'
import { recordPushes, startRecorder } from './recorder'

recordPushes(startRecorder(), PUSH_PUBLISHED_CHANNEL, 'published')
