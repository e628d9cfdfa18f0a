package dev.flipper.queue.spi;

/**
 * Who claims in one dequeue call: the descriptor stored on the claimed jobs (shown by lookup), the
 * caller's source (checked by checkpoint) and the time of the claim.
 */
public record Claim(String descriptor, String source, long nowMillis) {}
