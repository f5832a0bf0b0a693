import { parseArgs } from 'node:util'
import { ConfigError } from './config.js'
import { startService } from './index.js'

/** `npm run service -- [--host H] [--port N] [--db PATH] [--dev] [--seed demo]` (§1, §17). */

const usage = 'usage: npm run service -- [--host H] [--port N] [--db PATH] [--dev] [--seed demo]'

async function main(): Promise<void> {
  let values
  try {
    ;({ values } = parseArgs({
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        db: { type: 'string' },
        dev: { type: 'boolean' },
        seed: { type: 'string' },
        help: { type: 'boolean' }
      },
      strict: true
    }))
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`)
    process.exit(2)
  }
  if (values.help === true) {
    console.log(usage)
    return
  }
  if (values.seed !== undefined && values.seed !== 'demo') {
    console.error(`unknown seed "${values.seed}" (only "demo" exists)\n${usage}`)
    process.exit(2)
  }
  if (values.port !== undefined && !/^[0-9]+$/.test(values.port)) {
    console.error(`--port takes a number\n${usage}`)
    process.exit(2)
  }

  try {
    const service = await startService({
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values.port === undefined ? {} : { port: Number(values.port) }),
      ...(values.db === undefined ? {} : { db: values.db }),
      dev: values.dev ?? false,
      // A developer signing in needs the code the service "texted"; it is in /dev/outbox too.
      ...(values.dev === true ? { onSms: (to: string, text: string) => console.log(`sms to ${to}: ${text}`) } : {}),
      ...(values.seed === 'demo' ? { seed: 'demo' as const } : {})
    })
    const stop = (): void => {
      service.close().then(
        () => process.exit(0),
        () => process.exit(1)
      )
    }
    // Before anything is printed: a tool that stops the service as soon as it reads the banner
    // gets a clean exit.
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    // Where to connect from this machine; generated URLs use the public origin when one is set (§18.26).
    console.log(`listening on ${service.boundOrigin}`)
    if (service.origin !== service.boundOrigin) console.log(`public origin: ${service.origin}`)
    console.log(`attestation secret: ${service.attestationSecret}`)
    if (service.demoAccounts.length > 0) {
      console.log('demo accounts (e-mail / phone / password):')
      for (const account of service.demoAccounts) {
        console.log(`  ${account.name}: ${account.email} / ${account.phoneNumber} / ${account.password}`)
      }
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`error: ${error.message}`)
      process.exit(2)
    }
    throw error
  }
}

await main()
