import { BullmqDriver } from './bullmq-driver.mjs';
import { CpuMeter } from './cpu-meter.mjs';
import { parseOptions, UsageError } from './options.mjs';
import { Phases } from './phases.mjs';

/**
 * The suite's harness for BullMQ: runs the phases and prints one `RESULT {json}` line per phase, like the Java harness
 * (bench/suite) does for the other systems. bench/README.md lists the arguments. Exits 0 when done, 2 on a bad
 * argument, 1 on a failure; the run's keys are deleted in every case, also on SIGINT or SIGTERM.
 */
const CLOSE_TIMEOUT_MS = 60_000;

let driver;
let signalled; // the exit code of a signal: what fails after it is its consequence

async function main(args) {
  const options = parseOptions(args);
  const cpu = new CpuMeter(options.cpuPids);
  driver = await BullmqDriver.open(options.redis);
  const run = new Phases(options.system, driver, cpu, options.producers, options.inflight, options.seconds);
  let drainRate = 0;
  for (const phase of options.phases) {
    if (phase === 'drain-client') {
      continue; // Flipper's plain client only: BullMQ has just its Worker
    }
    const results = phase === 'latency' ? await latencies(run, options, drainRate) : [await runPhase(run, phase, options)];
    for (const result of results) {
      if (result.phase === 'drain') {
        drainRate = result.rate;
      }
      console.log(`RESULT ${JSON.stringify(result)}`);
    }
    await driver.clear();
  }
}

function runPhase(run, phase, options) {
  switch (phase) {
    case 'enqueue-single': return run.enqueueSingle();
    case 'enqueue-batch': return run.enqueueBatch();
    case 'drain': return run.drain(options.jobs, options.maxSeconds);
    case 'mixed': return run.mixed(options.mixedRate);
    default: throw new UsageError(`unknown phase '${phase}'`);
  }
}

async function latencies(run, options, drainRate) {
  if (!(drainRate > 0)) {
    throw new Error(`the latency phase needs a drain rate above 0, the drain phase gave ${drainRate}`);
  }
  const results = [];
  for (const [i, percent] of options.latencyPercents.entries()) {
    if (i > 0) {
      await driver.clear();
    }
    results.push(await run.latency(percent, drainRate * percent / 100));
  }
  return results;
}

/** Deletes the run's keys, at most once, within CLOSE_TIMEOUT_MS. */
let closing;
function closeDriver() {
  closing ??= driver === undefined ? Promise.resolve() : Promise.race([
    driver.close(),
    new Promise((_, reject) => setTimeout(() => reject(new Error('closing BullMQ timed out')), CLOSE_TIMEOUT_MS).unref()),
  ]);
  return closing;
}

async function exit(code) {
  code = signalled ?? code;
  try {
    await closeDriver();
  } catch (e) {
    console.error(`bullmq harness: could not delete the keys of prefix ${driver?.prefix}: ${e.message}`);
    code = code || 1;
  }
  process.exit(code);
}

for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  process.on(signal, () => {
    console.error(`bullmq harness: ${signal}, deleting this run's keys`);
    signalled = code;
    exit(code);
  });
}

main(process.argv.slice(2)).then(
  () => exit(0),
  e => {
    if (signalled === undefined) {
      console.error(`bullmq harness: ${e instanceof UsageError ? e.message : e.stack}`);
    }
    exit(e instanceof UsageError ? 2 : 1);
  });
