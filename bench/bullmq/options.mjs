/** The harness's `--name value` arguments, checked up front; bench/README.md documents every name. */
export class UsageError extends Error {}

const PHASES = ['enqueue-single', 'enqueue-batch', 'drain', 'drain-client', 'mixed', 'latency'];
// the other harness's arguments are accepted and ignored, so that bench/run.sh may pass one set to every harness
const IGNORED = ['jdbc-url', 'user', 'password', 'server'];
const DEFAULTS = {
  phases: PHASES.join(','),
  seconds: '5',
  jobs: '100000',
  'max-seconds': '60',
  producers: '8',
  inflight: '16',
  'mixed-rate': '10000',
  'latency-percents': '25,50,75,90',
  'cpu-pids': '',
  redis: '127.0.0.1:6379',
};

export function parseOptions(args) {
  const values = {};
  for (let i = 0; i < args.length; i += 2) {
    if (!args[i].startsWith('--') || i + 1 === args.length) {
      throw new UsageError(`expected --name value pairs, got '${args[i]}' at position ${i}`);
    }
    const name = args[i].slice(2);
    if (!(name in DEFAULTS) && name !== 'system' && !IGNORED.includes(name)) {
      throw new UsageError(`unknown argument --${name}`);
    }
    values[name] = args[i + 1];
  }
  const get = name => values[name] ?? DEFAULTS[name];
  if (values.system === undefined) {
    throw new UsageError('--system is required');
  }
  if (values.system !== 'bullmq') {
    throw new UsageError(`this harness runs --system bullmq only, not '${values.system}'`);
  }
  const phases = list(get('phases'));
  for (const phase of phases) {
    if (!PHASES.includes(phase)) {
      throw new UsageError(`unknown phase '${phase}'; known: ${PHASES.join(',')}`);
    }
  }
  if (phases.includes('latency') && !phases.slice(0, phases.indexOf('latency')).includes('drain')) {
    throw new UsageError('the latency phase needs the drain phase before it (its rate)');
  }
  return {
    system: values.system,
    phases,
    seconds: positiveNumber('seconds', get('seconds')),
    jobs: positiveInt('jobs', get('jobs')),
    maxSeconds: positiveNumber('max-seconds', get('max-seconds')),
    producers: positiveInt('producers', get('producers')),
    inflight: positiveInt('inflight', get('inflight')),
    mixedRate: positiveNumber('mixed-rate', get('mixed-rate')),
    latencyPercents: list(get('latency-percents')).map(p => positiveInt('latency-percents', p)),
    cpuPids: cpuPids(get('cpu-pids')),
    redis: hostPort(get('redis')),
  };
}

function list(value) {
  return value.split(',').map(s => s.trim()).filter(s => s !== '');
}

function positiveInt(name, value) {
  if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name}: expected a positive integer, got '${value}'`);
  }
  return Number(value);
}

function positiveNumber(name, value) {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0) {
    throw new UsageError(`--${name}: expected a positive number, got '${value}'`);
  }
  return number;
}

function cpuPids(spec) {
  const pids = new Map();
  for (const pair of list(spec)) {
    const [name, pid] = pair.split('=', 2).map(s => s?.trim());
    if (!name || name === 'client' || pids.has(name) || pid === undefined) {
      throw new UsageError(`--cpu-pids: expected name=PID pairs with distinct names other than client, got '${pair}'`);
    }
    pids.set(name, positiveInt('cpu-pids', pid));
  }
  return pids;
}

function hostPort(value) {
  const colon = value.lastIndexOf(':');
  const port = Number(value.slice(colon + 1));
  if (colon <= 0 || !/^\d+$/.test(value.slice(colon + 1)) || port < 1 || port > 65535) {
    throw new UsageError(`--redis: expected host:port, got '${value}'`);
  }
  return { host: value.slice(0, colon), port };
}
