/**
 * Run history: one row per finished workflow instance ({@link RunRecord}) and per job execution
 * ({@link ExecutionRecord}), written by the token master in the same transaction that archives an
 * instance's tokens ({@link dev.flipper.token.TokenMaster#archive(java.util.List, RunArchive)}) and
 * read in filtered, sorted pages ({@link RunQuery}, {@link ExecutionQuery}). It is an index of the
 * archive: the archived tokens stay the record, this is how the UI and the CLI find runs among
 * hundreds of thousands without reading them all. Pure values, no I/O.
 */
package dev.flipper.history;
