package dev.flipper.bench.suite;

/** One harness result, with the round it was measured in (0 = warm-up). */
record Run(int round, Target target, Result result) {}
