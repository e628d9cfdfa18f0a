import { Worker as Thread } from 'node:worker_threads';
import hdr from 'hdr-histogram-js';
import { origin } from './clock.mjs';

const READY_MS = 30_000;
const FORCED_CLOSE_MS = 10_000;

/**
 * The main thread's side of one phase's BullMQ Worker running in a worker thread (consumer-thread.mjs says why, and
 * the messages). ready() resolves once the Worker is connected and idle; run() lets it take jobs; ran() is how many it
 * ran (throwing if the thread failed); close() ends it and resolves with its latency histogram, if it kept one.
 */
export class ConsumerThread {
  /** @param options {queueName, connection, prefix, inflight, recordLatencies} */
  constructor(options) {
    this.counter = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    this.thread = new Thread(new URL('./consumer-thread.mjs', import.meta.url), {
      workerData: { ...options, ran: this.counter, clockOrigin: origin },
    });
    // without a listener an 'error' would end the process before the run's keys are deleted
    this.thread.on('error', e => { this.failure ??= e; });
    this.ended = new Promise(resolve => this.thread.once('exit', code => {
      if (this.closing === undefined) {
        this.failure ??= new Error(`the BullMQ worker thread ended early (exit code ${code})`);
      }
      this.exited = true;
      resolve();
    }));
  }

  /** Resolves once the Worker is connected (BullMQ's connections retry forever: a Redis gone fails in READY_MS). */
  async ready() {
    let timer;
    try {
      await Promise.race([this.receive('ready'), new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the BullMQ worker thread was not ready within ${READY_MS} ms`)),
          READY_MS);
      })]);
    } finally {
      clearTimeout(timer);
    }
  }

  run() {
    this.thread.postMessage({ type: 'run' });
  }

  ran() {
    if (this.failure) {
      throw this.failure;
    }
    return Atomics.load(this.counter, 0);
  }

  /** Closes the Worker (not waiting for its jobs if `force`), at most once; resolves with its latencies, if any. */
  close(force = false) {
    this.closing ??= this.exited ? Promise.resolve(undefined) : (async () => {
      this.thread.postMessage({ type: 'close', force });
      const closed = await this.receive('closed');
      await this.ended; // its connections are closed
      return closed.latencies && hdr.decodeFromCompressedBase64(closed.latencies);
    })();
    return this.closing;
  }

  /**
   * close(true), ending the thread if that takes more than FORCED_CLOSE_MS: after a failure or on a signal. Resolves
   * once the thread has ended; how it failed, if it did, was reported by ran() or ready().
   */
  async stop() {
    const timer = setTimeout(() => {
      console.error(`bullmq harness: the worker thread did not close within ${FORCED_CLOSE_MS} ms, terminating it`);
      this.thread.terminate();
    }, FORCED_CLOSE_MS);
    try {
      await this.close(true).catch(() => this.ended);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The next message of `type`; rejects if the thread fails or ends first. */
  receive(type) {
    return new Promise((resolve, reject) => {
      if (this.exited) {
        reject(this.failure ?? new Error(`the BullMQ worker thread ended before '${type}'`));
        return;
      }
      const onMessage = message => {
        if (message.type === type) {
          done();
          resolve(message);
        }
      };
      const onError = e => {
        done();
        reject(e);
      };
      const onExit = code => {
        done();
        reject(new Error(`the BullMQ worker thread ended (exit code ${code}) before '${type}'`));
      };
      const done = () => this.thread.off('message', onMessage).off('error', onError).off('exit', onExit);
      this.thread.on('message', onMessage).on('error', onError).on('exit', onExit);
    });
  }
}
