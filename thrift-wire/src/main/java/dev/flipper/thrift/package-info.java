/**
 * Thrift plumbing shared by Flipper's Thrift servers (the queue server and the token master) and
 * their clients: {@link dev.flipper.thrift.ThriftServing}, the serve-and-stop lifecycle; {@link
 * dev.flipper.thrift.PeerFaults} and {@link dev.flipper.thrift.ConnectionRefusals}, how a
 * misbehaving peer is logged and counted; {@link dev.flipper.thrift.BoundedBinaryProtocol}, the
 * size limits of a read; and where servers are: {@link dev.flipper.thrift.ServerAddress} and
 * PinLater's server-set file, {@link dev.flipper.thrift.ServerSetFile}.
 */
package dev.flipper.thrift;
