package dev.flipper.queue.redis.internal;

import java.util.List;
import redis.clients.jedis.Jedis;

/**
 * Every Lua script of the Redis store. Immutable and thread-safe; one instance is shared by all
 * shards.
 */
public final class Scripts {
  final LuaScript enqueue = LuaScript.named("enqueue");
  final LuaScript enqueueUnique = LuaScript.named("enqueue_unique");
  final LuaScript claim = LuaScript.named("claim");
  final LuaScript ackSucceeded = LuaScript.named("ack_succeeded");
  final LuaScript ackFailed = LuaScript.named("ack_failed");
  final LuaScript checkpoint = LuaScript.named("checkpoint");
  final LuaScript retryFailed = LuaScript.named("retry_failed");
  final LuaScript retryOne = LuaScript.named("retry_one");
  final LuaScript deleteFirst = LuaScript.named("delete_first");
  final LuaScript deleteListed = LuaScript.named("delete_listed");
  final LuaScript deleteQueue = LuaScript.named("delete_queue");
  final LuaScript timeOutClaims = LuaScript.named("time_out_claims");
  final LuaScript deleteFinished = LuaScript.named("delete_finished");

  List<LuaScript> all() {
    return List.of(
        enqueue,
        enqueueUnique,
        claim,
        ackSucceeded,
        ackFailed,
        checkpoint,
        retryFailed,
        retryOne,
        deleteFirst,
        deleteListed,
        deleteQueue,
        timeOutClaims,
        deleteFinished);
  }

  /** SCRIPT LOAD of every script, so the first calls need no retry. */
  void loadAll(Jedis jedis) {
    for (LuaScript script : all()) {
      script.load(jedis);
    }
  }
}
