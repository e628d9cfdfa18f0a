package dev.flipper.workflow.engine;

import java.time.Instant;

/**
 * What a lease renewal found. Immutable.
 *
 * @param leaseEnd the new end of the lease
 * @param abortRequested an ABORT signal covers the job's instance (at any scope): the worker should
 *     kill the process and finish the job as failed (Pinball's renewer did this at each tick)
 */
public record Renewal(Instant leaseEnd, boolean abortRequested) {}
