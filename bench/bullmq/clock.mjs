import { isMainThread, workerData } from 'node:worker_threads';

/**
 * Nanoseconds since this process's start as a Number (exact to the nanosecond for 104 days): producers and worker share
 * it. process.hrtime is one monotonic clock for all threads of the process: a worker thread (consumer-thread.mjs) takes
 * the main thread's origin from workerData.clockOrigin, so stamps made on one thread are read right on the other.
 */
export const origin = isMainThread ? process.hrtime.bigint() : workerData.clockOrigin;

export function nanoTime() {
  return Number(process.hrtime.bigint() - origin);
}

export function secondsSince(start) {
  return (nanoTime() - start) / 1e9;
}
