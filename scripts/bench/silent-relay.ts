// A TCP relay to the service that can stop answering, in a process of its own so that the pushes
// the app receives through it never wait on the driver's busy event loop (in the driver, it made
// the hop service → app p99 about twice what it is without a relay). Started by local-store.ts as
// `node --import tsx scripts/bench/silent-relay.ts <service origin>`: it prints `Relay <origin>`
// once it listens; the IPC message 'silent' makes it take every later connection and leave it
// hanging, as a service that hangs does.
import { connect, createServer, type Socket } from 'node:net'

const target = process.argv[2]
if (target === undefined) throw new Error('usage: silent-relay.ts <service origin>')
const { hostname, port } = new URL(target)
let silent = false
const sockets = new Set<Socket>()

const server = createServer((socket) => {
  sockets.add(socket)
  socket.on('close', () => sockets.delete(socket))
  socket.on('error', () => socket.destroy())
  if (silent) return
  const upstream = connect(Number(port), hostname)
  sockets.add(upstream)
  upstream.on('close', () => sockets.delete(upstream))
  upstream.on('error', () => socket.destroy())
  socket.pipe(upstream).pipe(socket)
})

process.on('message', (message) => {
  if (message === 'silent') silent = true
  process.send?.('ok')
})
// The driver gone, the relay goes with it.
process.on('disconnect', () => {
  for (const socket of sockets) socket.destroy()
  server.close(() => process.exit(0))
})

server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the relay has no port')
  console.log(`Relay http://127.0.0.1:${address.port}`)
})
