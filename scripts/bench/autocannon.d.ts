/** The part of autocannon 9 (which publishes no types) that the service bench uses. */
declare module 'autocannon' {
  export interface RequestParams {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string | Buffer
  }

  export interface Request extends RequestParams {
    /** Called before each request built from this entry; returns the request to send. */
    setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams
  }

  export interface Options {
    url: string
    connections?: number
    pipelining?: number
    duration?: number
    amount?: number
    method?: string
    headers?: Record<string, string>
    body?: string
    requests?: Request[]
    timeout?: number
  }

  export interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p50: number
    p90: number
    p99: number
  }

  export interface Result {
    requests: Histogram
    latency: Histogram
    throughput: Histogram
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
    duration: number
  }

  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
