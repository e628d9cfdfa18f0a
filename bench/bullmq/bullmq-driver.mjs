import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { ConsumerThread } from './consumer.mjs';

const JOB_NAME = 'bench';
const SCAN_COUNT = 5000;

/**
 * BullMQ as the phases see it: a Queue (BullMQ's own ioredis connection) to enqueue and a Worker in a worker thread of
 * this process to run jobs, both with BullMQ's defaults otherwise. Every key lives under a prefix of this run's own:
 * clear() and close() delete them all through a connection of the harness's own; nothing else on the shared Redis is
 * touched.
 */
export class BullmqDriver {
  static async open(redis) {
    // the harness's connection fails fast when Redis is not there (BullMQ's own connections retry forever)
    const admin = new IORedis({ ...redis, lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
    let refused; // ioredis rejects connect() with 'Connection is closed.', the cause comes as an 'error' event
    admin.on('error', e => { refused = e; });
    try {
      await admin.connect();
    } catch (e) {
      throw new Error(`cannot connect to Redis at ${redis.host}:${redis.port}: ${(refused ?? e).message}`);
    }
    const driver = new BullmqDriver(redis, admin);
    await driver.openQueue();
    return driver;
  }

  constructor(redis, admin) {
    this.connection = redis;
    this.admin = admin;
    this.prefix = `bench-bullmq-${randomBytes(6).toString('hex')}`;
    this.queues = 0;
    this.workers = new Set(); // every ConsumerThread, for close() after a failure or a signal (a closed one is a no-op)
  }

  enqueue(data) {
    return this.queue.add(JOB_NAME, data);
  }

  enqueueBatch(datas) {
    return this.queue.addBulk(datas.map(data => ({ name: JOB_NAME, data })));
  }

  /**
   * Starts a Worker with `inflight` concurrency in a worker thread of its own (ConsumerThread) and resolves once it is
   * connected, before it takes a job: the caller starts the clock, then calls run().
   */
  async consume(inflight, recordLatencies = false) {
    const consumer = new ConsumerThread({
      queueName: this.queue.name,
      connection: this.connection,
      prefix: this.prefix,
      inflight,
      recordLatencies,
    });
    this.workers.add(consumer); // also when it fails to start: close() ends it
    await consumer.ready();
    return consumer;
  }

  /** Removes every job: the queue is closed, its keys deleted, and the next phase gets a queue of a new name. */
  async clear() {
    await this.queue.close();
    await this.deleteKeys();
    await this.openQueue();
  }

  /** Stops what runs (a worker without waiting for its jobs) and deletes every key of the run. */
  async close() {
    try {
      await Promise.all([...this.workers].map(worker => worker.stop()));
      await this.queue.close();
    } finally {
      await this.deleteKeys();
      await this.admin.quit();
    }
  }

  async openQueue() {
    this.queue = new Queue(`q${++this.queues}`, { connection: this.connection, prefix: this.prefix });
    this.queue.on('error', e => console.error(`bullmq queue error: ${e.message}`));
    await this.queue.waitUntilReady();
  }

  /** SCAN and UNLINK until a whole pass finds no key of the prefix. */
  async deleteKeys() {
    let deleted;
    do {
      deleted = 0;
      let cursor = '0';
      do {
        const [next, keys] = await this.admin.scan(cursor, 'MATCH', `${this.prefix}:*`, 'COUNT', SCAN_COUNT);
        if (keys.length > 0) {
          deleted += await this.admin.unlink(...keys);
        }
        cursor = next;
      } while (cursor !== '0');
    } while (deleted > 0);
  }
}
