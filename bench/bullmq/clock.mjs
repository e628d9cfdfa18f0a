/** Nanoseconds since this process's start as a Number (exact to the nanosecond for 104 days): producers and worker share it. */
const origin = process.hrtime.bigint();

export function nanoTime() {
  return Number(process.hrtime.bigint() - origin);
}

export function secondsSince(start) {
  return (nanoTime() - start) / 1e9;
}
