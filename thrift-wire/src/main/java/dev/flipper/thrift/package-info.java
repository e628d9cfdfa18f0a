/**
 * Thrift plumbing shared by Flipper's Thrift servers (the queue server and the token master):
 * {@link dev.flipper.thrift.ThriftServing}, the serve-and-stop lifecycle.
 */
package dev.flipper.thrift;
