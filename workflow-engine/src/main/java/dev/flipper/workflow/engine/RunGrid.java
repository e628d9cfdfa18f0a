package dev.flipper.workflow.engine;

import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunRecord;
import java.util.List;
import java.util.Map;

/**
 * The latest runs of a workflow and their executions: the data of a runs × jobs grid.
 *
 * @param runs newest first
 * @param executions by instance, then job (in the order first seen), each job's executions oldest
 *     first; a job that never ran in a run has no entry
 */
public record RunGrid(
    List<RunRecord> runs, Map<String, Map<String, List<ExecutionRecord>>> executions) {}
