import { parentPort, workerData } from 'node:worker_threads';
import { Worker } from 'bullmq';
import hdr from 'hdr-histogram-js';
import { stamp } from './body.mjs';
import { nanoTime } from './clock.mjs';

/**
 * A worker thread of the harness's process running one phase's BullMQ Worker (concurrency = inflight, its own
 * connections, BullMQ's defaults otherwise), so that it runs in parallel with the producers on the main thread, as the
 * Java harness's worker does with its producer threads. ConsumerThread (consumer.mjs) is the main thread's side:
 * - this thread posts {type: 'ready'} once its Worker (autorun off) is connected, so start-up is not timed;
 * - {type: 'run'} starts the Worker; each job it runs adds 1 to workerData.ran (a shared Int32Array), a cheap
 *   per-job report the main thread reads when it likes;
 * - {type: 'close', force} closes the Worker (waiting for its jobs unless forced), posts {type: 'closed', latencies}
 *   (the enqueue-to-start latencies in µs as a compressed HDR histogram, when workerData.recordLatencies) and ends.
 * A failure ends the thread with an 'error' at the main thread.
 */
const { queueName, connection, prefix, inflight, recordLatencies, ran } = workerData;
const latencies = recordLatencies ? hdr.build({ numberOfSignificantValueDigits: 3 }) : undefined; // like Recorder(3)

const worker = new Worker(queueName, async job => {
  latencies?.recordValue(Math.floor(Math.max(0, nanoTime() - stamp(job.data)) / 1000));
  Atomics.add(ran, 0, 1);
}, { connection, prefix, concurrency: inflight, autorun: false });
worker.on('error', e => console.error(`bullmq worker error: ${e.message}`));
worker.on('failed', (job, e) => console.error(`bullmq job ${job?.id} failed: ${e.message}`));

parentPort.on('message', async message => {
  if (message.type === 'run') {
    worker.run(); // resolves when closed; a rejection is uncaught, which ends the thread with an 'error'
  } else if (message.type === 'close') {
    await worker.close(message.force);
    parentPort.postMessage({ type: 'closed', latencies: latencies && hdr.encodeIntoCompressedBase64(latencies) });
    parentPort.close();
  }
});

await worker.waitUntilReady();
parentPort.postMessage({ type: 'ready' });
