import { setTimeout as sleep } from 'node:timers/promises';
import { stamped } from './body.mjs';
import { nanoTime, secondsSince } from './clock.mjs';
import { CpuMeter } from './cpu-meter.mjs';

const BATCH = 100;

/**
 * The suite's phases over the BullMQ driver, the same as the Java harness's Phases (bench/suite): bench/README.md says
 * what each measures. Producers are async loops sharing the Queue; the Worker runs in a worker thread, in parallel with
 * them (consumer-thread.mjs). CPU (process.cpuUsage: all threads) is sampled around the measured part only.
 */
export class Phases {
  constructor(system, driver, cpu, producers, inflight, seconds) {
    this.system = system;
    this.driver = driver;
    this.cpu = cpu;
    this.producers = producers;
    this.inflight = inflight;
    this.seconds = seconds;
  }

  /** `producers` loops enqueue one job per call for the phase's time. */
  enqueueSingle() {
    return this.enqueueFor('enqueue-single', async () => {
      await this.driver.enqueue(stamped(nanoTime()));
      return 1;
    });
  }

  /** `producers` loops enqueue batches of 100 for the phase's time. */
  enqueueBatch() {
    return this.enqueueFor('enqueue-batch', async () => {
      await this.driver.enqueueBatch(batch());
      return BATCH;
    });
  }

  /**
   * Pre-fills `jobs` jobs (not measured), then runs them with the Worker until all ran or `maxSeconds` passed. The
   * clock starts when the Worker, connected in its thread, is told to run (here and below): its start-up is not timed.
   */
  async drain(jobs, maxSeconds) {
    await this.fill(jobs);
    const consumers = await this.driver.consume(this.inflight);
    try {
      const cpuBefore = this.cpu.snapshot();
      const start = nanoTime();
      consumers.run();
      await waitFor(() => consumers.ran() >= jobs, start, maxSeconds);
      const ran = consumers.ran();
      const elapsed = secondsSince(start);
      const spent = CpuMeter.since(cpuBefore, this.cpu.snapshot());
      return this.result('drain', ran, elapsed, ran / elapsed, undefined, Math.max(0, jobs - ran), undefined, spent);
    } finally {
      await consumers.close();
    }
  }

  /**
   * Producers offer `rate` jobs per second in all while the Worker runs jobs: does it keep up (ran per second against
   * enqueued per second, and what is left waiting at the end)?
   */
  async mixed(rate) {
    let enqueued = 0;
    const consumers = await this.driver.consume(this.inflight);
    try {
      const cpuBefore = this.cpu.snapshot();
      const start = nanoTime();
      consumers.run();
      await this.runPacedProducers(start, rate, jobs => { enqueued += jobs; });
      const elapsed = secondsSince(start);
      const ranInTime = consumers.ran();
      const spent = CpuMeter.since(cpuBefore, this.cpu.snapshot());
      return this.result('mixed', ranInTime, elapsed, ranInTime / elapsed, enqueued / elapsed,
        Math.max(0, enqueued - ranInTime), undefined, spent);
    } finally {
      await consumers.close();
    }
  }

  /**
   * Producers enqueue single jobs at `rate` per second in all (each job stamped with the time it was due, so a
   * producer that falls behind counts against the system) while the Worker runs them; enqueue-to-start latency, which
   * the Worker's thread records (in microseconds, like the Java Recorder(3)) and hands over when closed.
   */
  async latency(percentOfDrain, rate) {
    let enqueued = 0;
    const consumers = await this.driver.consume(this.inflight, true);
    try {
      const cpuBefore = this.cpu.snapshot();
      const start = nanoTime();
      consumers.run();
      await this.runPacedProducers(start, rate, jobs => { enqueued += jobs; });
      const total = enqueued;
      await waitFor(() => consumers.ran() >= total, nanoTime(), 10);
      const ran = consumers.ran();
      const elapsed = secondsSince(start);
      const spent = CpuMeter.since(cpuBefore, this.cpu.snapshot());
      const latencies = await consumers.close();
      const percentiles = {
        p50: latencies.getValueAtPercentile(50) / 1000,
        p99: latencies.getValueAtPercentile(99) / 1000,
        p999: latencies.getValueAtPercentile(99.9) / 1000,
      };
      return this.result(`latency-${percentOfDrain}`, ran, elapsed, ran / elapsed, total / this.seconds,
        Math.max(0, total - ran), percentiles, spent);
    } finally {
      await consumers.close();
    }
  }

  async enqueueFor(phase, call) {
    let enqueued = 0;
    const cpuBefore = this.cpu.snapshot();
    const start = nanoTime();
    await this.runProducers(start, async () => {
      const jobs = await call(); // not `enqueued += await call()`: that would add to the value read before the await
      enqueued += jobs;
    });
    const elapsed = secondsSince(start);
    const spent = CpuMeter.since(cpuBefore, this.cpu.snapshot());
    return this.result(phase, enqueued, elapsed, enqueued / elapsed, undefined, undefined, undefined, spent);
  }

  fill(jobs) {
    let next = 0;
    return this.runLoops(async () => {
      while (next < jobs) {
        next += BATCH;
        await this.driver.enqueueBatch(batch());
      }
    });
  }

  runProducers(start, step) {
    const end = start + Math.trunc(this.seconds * 1e9);
    return this.runLoops(async () => {
      while (nanoTime() < end) {
        await step();
      }
    });
  }

  /**
   * Open-loop producers, as the Java harness's: job i of a producer is due at a fixed time; each call sends every job
   * due by now (one job, or up to 100 in one addBulk when the producer is behind), stamped with its due time.
   */
  runPacedProducers(start, rate, onEnqueued) {
    const end = start + Math.trunc(this.seconds * 1e9);
    const interval = this.producers * 1e9 / rate; // between two jobs of one producer
    let producer = 0;
    return this.runLoops(async () => {
      const first = start + Math.trunc(producer++ * interval / this.producers);
      for (let sent = 0; ;) {
        const due = first + Math.trunc(sent * interval);
        if (due >= end) {
          return;
        }
        await sleepUntil(due);
        const now = nanoTime();
        const bodies = [];
        for (let next = due; bodies.length < BATCH && next <= now && next < end;
          next = first + Math.trunc((sent + bodies.length) * interval)) {
          bodies.push(stamped(next));
        }
        if (bodies.length === 1) {
          await this.driver.enqueue(bodies[0]);
        } else {
          await this.driver.enqueueBatch(bodies);
        }
        sent += bodies.length;
        onEnqueued(bodies.length);
      }
    });
  }

  /** `producers` concurrent async loops; rejects with the first failure. */
  runLoops(body) {
    return Promise.all(Array.from({ length: this.producers }, () => body()));
  }

  /** One RESULT line's object, fields in the Java harness's order; undefined fields are left out of the JSON. */
  result(phase, jobs, seconds, rate, enqueueRate, left, latencyMs, cpuSeconds) {
    return { system: this.system, phase, jobs, seconds, rate, enqueueRate, left, latencyMs, cpuSeconds };
  }
}

/**
 * Node's timers have a resolution of 1 ms and may fire up to 1 ms early: sleep again until the due time has passed, so
 * no job is enqueued early. A job is enqueued on average ~0.7 ms after its due time this way (counted in its latency, as a
 * producer falling behind is); spinning to the exact time instead would cost a core of client CPU.
 */
async function sleepUntil(due) {
  for (let wait = due - nanoTime(); wait > 0; wait = due - nanoTime()) {
    await sleep(Math.ceil(wait / 1e6));
  }
}

async function waitFor(done, start, maxSeconds) {
  const deadline = start + maxSeconds * 1e9;
  while (!done() && nanoTime() < deadline) {
    await sleep(5);
  }
}

function batch() {
  const data = stamped(nanoTime());
  return Array.from({ length: BATCH }, () => data);
}
