// Each test file's stores start their worker threads from the build made once for the run (see
// store-worker-build.ts).
import { inject } from 'vitest'
import { startStoreWorkersFrom } from '../../src/main/storage/local-store/store-thread'

startStoreWorkersFrom(inject('storeWorker'))
