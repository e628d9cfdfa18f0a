package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.queue.thrift.ErrorCode;
import dev.flipper.queue.thrift.PinLater;
import dev.flipper.queue.thrift.PinLaterDequeueRequest;
import dev.flipper.queue.thrift.PinLaterDequeueResponse;
import dev.flipper.queue.thrift.PinLaterEnqueueRequest;
import dev.flipper.queue.thrift.PinLaterEnqueueResponse;
import dev.flipper.queue.thrift.PinLaterException;
import dev.flipper.queue.thrift.PinLaterJob;
import dev.flipper.queue.thrift.PinLaterJobInfo;
import dev.flipper.queue.thrift.PinLaterJobState;
import dev.flipper.queue.thrift.PinLaterLookupJobRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TStruct;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The wire contract (docs/thrift.md, "Transport and protocol" and "Compatibility notes"), over real
 * TCP.
 */
class WireProtocolTest {
  private final TestServer server = TestServer.start(b -> b.maxFrameBytes(64 * 1024));

  @AfterEach
  void stop() {
    server.close();
  }

  @ParameterizedTest(name = "strict header: {0}")
  @ValueSource(booleans = {true, false})
  void acceptsStrictAndOldHeadersAndAnswersStrict(boolean strict) throws Exception {
    server.service.createQueue("wire_q");
    try (RawConnection connection = new RawConnection(server.port())) {
      connection.sendFrame(
          RawConnection.call(
              "getQueueNames", new PinLater.getQueueNames_args(TestServer.CONTEXT), 7, strict));

      RawConnection.Reply reply = RawConnection.parse(connection.readFrame());

      assertThat(reply.isStrict()).isTrue();
      assertThat(reply.header().type).isEqualTo(TMessageType.REPLY);
      assertThat(reply.header().seqid).isEqualTo(7);
      assertThat(reply.header().name).isEqualTo("getQueueNames");
      PinLater.getQueueNames_result result = new PinLater.getQueueNames_result();
      result.read(reply.body());
      assertThat(result.getSuccess()).containsExactly("wire_q");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"__can__finagle__trace__v3__", "noSuchMethod"})
  void unknownMethodGetsUnknownMethodAndTheConnectionStaysUsable(String method) throws Exception {
    try (RawConnection connection = new RawConnection(server.port())) {
      connection.sendFrame(RawConnection.call(method, new EmptyStruct(), 1, true));

      RawConnection.Reply reply = RawConnection.parse(connection.readFrame());
      assertThat(reply.header().type).isEqualTo(TMessageType.EXCEPTION);
      TApplicationException error = TApplicationException.readFrom(reply.body());
      assertThat(error.getType()).isEqualTo(TApplicationException.UNKNOWN_METHOD);

      connection.sendFrame(
          RawConnection.call(
              "getQueueNames", new PinLater.getQueueNames_args(TestServer.CONTEXT), 2, true));
      RawConnection.Reply next = RawConnection.parse(connection.readFrame());
      assertThat(next.header().type).isEqualTo(TMessageType.REPLY);
      assertThat(next.header().seqid).isEqualTo(2);
    }
  }

  @Test
  void frameOverTheLimitClosesOnlyThatConnection() throws Exception {
    try (RawConnection healthy = new RawConnection(server.port());
        RawConnection offender = new RawConnection(server.port())) {
      // An oversized call other than an enqueue closes its connection as soon as its header shows
      // the method.
      byte[] call =
          RawConnection.call(
              "getQueueNames", new PinLater.getQueueNames_args(TestServer.CONTEXT), 1, true);
      offender.sendRaw(
          ByteBuffer.allocate(4 + call.length).putInt(64 * 1024 + 1).put(call).array());
      assertThat(offender.closedByServer()).isTrue();

      healthy.sendFrame(
          RawConnection.call(
              "getQueueNames", new PinLater.getQueueNames_args(TestServer.CONTEXT), 3, true));
      assertThat(RawConnection.parse(healthy.readFrame()).header().type)
          .isEqualTo(TMessageType.REPLY);
    }
  }

  @Test
  void missingRequestContextIsAClearPinLaterError() throws Exception {
    try (TestServer.ThriftClient client = server.thriftClient()) {
      assertThatThrownBy(() -> client.api().getQueueNames(null))
          .isInstanceOfSatisfying(
              PinLaterException.class,
              e -> {
                assertThat(e.getErrorCode()).isEqualTo(ErrorCode.UNKNOWN);
                assertThat(e.getMessage()).contains("RequestContext");
              });
      assertThat(client.api().getQueueNames(TestServer.CONTEXT)).isEmpty(); // connection still fine
    }
  }

  @Test
  void absentOptionalFieldsTakeTheIdlDefaults() throws Exception {
    server.service.createQueue("defaults_q");
    try (TestServer.ThriftClient client = server.thriftClient()) {
      PinLaterJob bare = new PinLaterJob(ByteBuffer.wrap("b".getBytes(StandardCharsets.UTF_8)));
      bare.unsetPriority();
      bare.unsetNumAttemptsAllowed();
      bare.setCustomStatus(null);
      List<String> ids =
          client
              .api()
              .enqueueJobs(
                  TestServer.CONTEXT, new PinLaterEnqueueRequest("defaults_q", List.of(bare)))
              .getJobDescriptors();

      assertThat(ids).singleElement().asString().startsWith("defaults_q:s").contains(":p1:");
      Map<String, PinLaterJobInfo> info =
          client.api().lookupJobs(TestServer.CONTEXT, new PinLaterLookupJobRequest(ids));
      PinLaterJobInfo job = info.get(ids.get(0));
      assertThat(job.getJobState()).isEqualTo(PinLaterJobState.PENDING);
      assertThat(job.getAttemptsAllowed()).isEqualTo(2);
      assertThat(job.getAttemptsRemaining()).isEqualTo(2);
      assertThat(job.getCustomStatus()).isEmpty();
      assertThat(job.isSetBody()).isFalse();
      assertThat(job.isSetClaimDescriptor()).isFalse();
    }
  }

  @Test
  void uniqueKeysAreAdditiveAndOnlyKeyedRequestsGetDuplicateFlags() throws Exception {
    server.service.createQueue("unique_q");
    try (TestServer.ThriftClient client = server.thriftClient()) {
      PinLaterJob keyed =
          new PinLaterJob(ByteBuffer.wrap("k".getBytes(StandardCharsets.UTF_8)))
              .setUniqueKey("order-7")
              .setUniqueForMillis(60_000);
      PinLaterEnqueueResponse first =
          client
              .api()
              .enqueueJobs(
                  TestServer.CONTEXT, new PinLaterEnqueueRequest("unique_q", List.of(keyed)));
      PinLaterEnqueueResponse again =
          client
              .api()
              .enqueueJobs(
                  TestServer.CONTEXT,
                  new PinLaterEnqueueRequest("unique_q", List.of(keyed.deepCopy(), keyed)));
      // What a PinLater client sends: no key, and it gets back just the descriptors.
      PinLaterEnqueueResponse plain =
          client
              .api()
              .enqueueJobs(
                  TestServer.CONTEXT,
                  new PinLaterEnqueueRequest(
                      "unique_q", List.of(new PinLaterJob(ByteBuffer.wrap(new byte[] {1})))));

      assertThat(first.getDuplicates()).containsExactly(false);
      assertThat(again.getJobDescriptors())
          .containsExactly(first.getJobDescriptors().get(0), first.getJobDescriptors().get(0));
      assertThat(again.getDuplicates()).containsExactly(true, true);
      assertThat(plain.isSetDuplicates()).isFalse();
      assertThat(plain.getJobDescriptors())
          .singleElement()
          .isNotEqualTo(first.getJobDescriptors().get(0));
    }
  }

  @Test
  void badUniqueKeyIsRejectedWithTheRule() throws Exception {
    server.service.createQueue("unique_q");
    try (TestServer.ThriftClient client = server.thriftClient()) {
      PinLaterJob bad =
          new PinLaterJob(ByteBuffer.wrap(new byte[] {1})).setUniqueKey("white space");
      assertThatThrownBy(
              () ->
                  client
                      .api()
                      .enqueueJobs(
                          TestServer.CONTEXT, new PinLaterEnqueueRequest("unique_q", List.of(bad))))
          .isInstanceOf(PinLaterException.class)
          .hasMessageContaining("uniqueKey 'white space'")
          .hasMessageContaining("[A-Za-z0-9_.:/@=+-]+");
    }
  }

  @Test
  void emptyDequeueAnswersEmptyMapsAndEmptyEnqueueAnswersNoDescriptors() throws Exception {
    server.service.createQueue("empty_q");
    try (TestServer.ThriftClient client = server.thriftClient()) {
      PinLaterDequeueResponse response =
          client.api().dequeueJobs(TestServer.CONTEXT, new PinLaterDequeueRequest("empty_q", 5));
      assertThat(response.isSetJobs()).isTrue();
      assertThat(response.getJobs()).isEmpty();
      assertThat(response.isSetJobMetadata()).isTrue();
      assertThat(
              client
                  .api()
                  .enqueueJobs(TestServer.CONTEXT, new PinLaterEnqueueRequest("empty_q", List.of()))
                  .getJobDescriptors())
          .isEmpty();
    }
  }

  @Test
  void errorsCarryThePinLaterCodes() throws Exception {
    try (TestServer.ThriftClient client = server.thriftClient()) {
      assertCode(
          () -> client.api().createQueue(TestServer.CONTEXT, "bad-name"),
          ErrorCode.QUEUE_NAME_INVALID);
      assertCode(
          () ->
              client
                  .api()
                  .enqueueJobs(
                      TestServer.CONTEXT,
                      new PinLaterEnqueueRequest(
                          "never_created",
                          List.of(new PinLaterJob(ByteBuffer.wrap(new byte[] {1}))))),
          ErrorCode.QUEUE_NOT_FOUND);
      client.api().createQueue(TestServer.CONTEXT, "codes_q");
      assertCode(
          () ->
              client
                  .api()
                  .enqueueJobs(
                      TestServer.CONTEXT,
                      new PinLaterEnqueueRequest(
                          "codes_q",
                          List.of(
                              new PinLaterJob(ByteBuffer.wrap(new byte[] {1}))
                                  .setPriority((byte) 4)))),
          ErrorCode.PRIORITY_NOT_SUPPORTED);
      assertCode(
          () -> client.api().deleteQueue(TestServer.CONTEXT, "codes_q", "wrong"),
          ErrorCode.PASSWORD_INVALID);
      assertCode(
          () ->
              client
                  .api()
                  .dequeueJobs(TestServer.CONTEXT, new PinLaterDequeueRequest("codes_q", 0)),
          ErrorCode.UNKNOWN);
      client.api().deleteQueue(TestServer.CONTEXT, "codes_q", TestServer.ADMIN_PASSWORD);
      assertThat(client.api().getQueueNames(TestServer.CONTEXT)).doesNotContain("codes_q");
    }
    assertThat(server.metrics.counter("PinLater.createQueue.errors.QUEUE_NAME_INVALID").getCount())
        .isEqualTo(1);
    assertThat(server.metrics.counter("PinLater.deleteQueue.errors.PASSWORD_INVALID").getCount())
        .isEqualTo(1);
    assertThat(server.metrics.timer("PinLaterService.createQueue").getCount()).isEqualTo(2);
  }

  private static void assertCode(ThrowingCall call, ErrorCode code) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            PinLaterException.class,
            e -> assertThat(e.getErrorCode()).as(e.getMessage()).isEqualTo(code));
  }

  interface ThrowingCall {
    void run() throws Exception;
  }

  /** The args of an unknown call: an empty struct, like Finagle's ConnectionOptions. */
  static final class EmptyStruct extends PinLater.getQueueNames_args {
    @Override
    public void write(org.apache.thrift.protocol.TProtocol out)
        throws org.apache.thrift.TException {
      out.writeStructBegin(new TStruct("ConnectionOptions"));
      out.writeFieldStop();
      out.writeStructEnd();
    }
  }
}
