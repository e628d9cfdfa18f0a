/**
 * The engine's mechanics behind {@link dev.flipper.workflow.engine.WorkflowEngine}: claims, job
 * transitions, instance starts, executions, archiving and notices. Used only by {@code
 * dev.flipper.workflow.engine}; everything else calls the engine's public classes (an ArchUnit rule
 * in workflow-engine's tests checks it).
 */
package dev.flipper.workflow.engine.internal;
