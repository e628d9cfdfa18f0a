/** The suite's 200-byte job data: the time the job was meant to be enqueued (nanoTime, decimal), then 'x' padding. */
export const SIZE = 200;

export function stamped(nanos) {
  return String(Math.trunc(nanos)).padEnd(SIZE, 'x');
}

export function stamp(data) {
  return Number(data.slice(0, data.indexOf('x')));
}
