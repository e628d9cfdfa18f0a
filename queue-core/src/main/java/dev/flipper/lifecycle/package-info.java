/**
 * The lifecycle shared by every Flipper daemon and server: {@link dev.flipper.lifecycle.Daemon}
 * (start, ready, reconfigure, stop), the start-once {@link dev.flipper.lifecycle.RunState} and
 * {@link dev.flipper.lifecycle.NamedThreadFactory}. JDK only, so every module can use it.
 */
package dev.flipper.lifecycle;
