package dev.flipper.workflow.ui.view;

/**
 * Part of a log, read from the worker that wrote it. Immutable.
 *
 * @param offset the byte offset of {@code text} in the log
 * @param nextOffset where to ask next to follow the log
 * @param size the log's size in bytes when read
 * @param running the execution still runs: more may come
 */
public record LogChunk(long offset, long nextOffset, long size, String text, boolean running) {}
