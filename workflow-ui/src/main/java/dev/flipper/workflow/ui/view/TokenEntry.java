package dev.flipper.workflow.ui.view;

/**
 * One entry of the token browser. Immutable.
 *
 * @param path a name prefix ending in {@code /} (a folder) or a whole token name (a leaf)
 * @param count tokens under a folder; 1 for a leaf
 */
public record TokenEntry(String path, int count, boolean leaf) {}
