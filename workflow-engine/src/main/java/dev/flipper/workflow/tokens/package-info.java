/**
 * The workflow token data model: where each workflow token lives ({@link
 * dev.flipper.workflow.tokens.TokenLayout}), what it holds (the {@code *Data} records, JSON through
 * {@link dev.flipper.workflow.tokens.Json}), and the two helpers every writer of these tokens
 * needs: {@link dev.flipper.workflow.tokens.ConflictRetry} (re-read and re-apply after a version
 * conflict) and {@link dev.flipper.workflow.tokens.Owners} (lease owner names).
 *
 * <p>Shared by the engine, the control operations, the worker fleet's heartbeats and the scheduler,
 * and documented in docs/tokens.md ("Workflow tokens"). <b>Unstable:</b> the layout and the records
 * may change between minor versions (a migration then says so in the CHANGELOG); applications
 * should use {@link dev.flipper.workflow.engine.WorkflowEngine} and {@link
 * dev.flipper.workflow.control.WorkflowControl} instead. The engine's own mechanics (claims,
 * transitions, archiving) are in {@code dev.flipper.workflow.engine.internal}, which nothing
 * outside the engine package uses.
 */
package dev.flipper.workflow.tokens;
