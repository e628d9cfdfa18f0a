package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.thrift.PinLater;
import dev.flipper.queue.thrift.PinLaterDequeueRequest;
import dev.flipper.queue.thrift.PinLaterEnqueueRequest;
import dev.flipper.queue.thrift.PinLaterException;
import dev.flipper.queue.thrift.PinLaterGetJobCountRequest;
import dev.flipper.queue.thrift.PinLaterJob;
import dev.flipper.queue.thrift.PinLaterJobAckInfo;
import dev.flipper.queue.thrift.PinLaterJobAckRequest;
import dev.flipper.queue.thrift.PinLaterJobState;
import dev.flipper.queue.thrift.PinLaterLookupJobRequest;
import dev.flipper.queue.thrift.RequestContext;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Inputs a buggy or hostile client may send get a clear error over the wire, never a wrong result.
 */
class InputValidationTest {
  private static final String QUEUE = "validation_q";
  private TestServer server;
  private TestServer.ThriftClient thrift;
  private PinLater.Client api;

  @BeforeEach
  void start() throws Exception {
    server = TestServer.start();
    thrift = server.thriftClient();
    api = thrift.api();
    api.createQueue(TestServer.CONTEXT, QUEUE);
  }

  @AfterEach
  void stop() {
    thrift.close();
    server.close();
  }

  @Test
  void aRetryDelayThatOverflowsIsRefusedAndTheJobStaysClaimed() throws Exception {
    String job = enqueueOne();
    assertThat(api.dequeueJobs(TestServer.CONTEXT, new PinLaterDequeueRequest(QUEUE, 1)).getJobs())
        .hasSize(1);

    assertRefused(
        () ->
            api.ackDequeuedJobs(
                TestServer.CONTEXT,
                new PinLaterJobAckRequest(QUEUE)
                    .setJobsFailed(
                        List.of(new PinLaterJobAckInfo(job).setRetryDelayMillis(Long.MAX_VALUE)))),
        "retry delay");

    assertThat(api.dequeueJobs(TestServer.CONTEXT, new PinLaterDequeueRequest(QUEUE, 1)).getJobs())
        .as("the job is not due again at once")
        .isNullOrEmpty();
  }

  @Test
  void nonCanonicalDescriptorsAreRefused() throws Exception {
    String job = enqueueOne();
    String shard = job.split(":")[1];
    assertThat(job).isEqualTo(QUEUE + ":" + shard + ":p1:1");

    for (String alias : List.of(":p01:1", ":p1:01", ":p1:+1", ":p+1:1", ":p1:1 ")) {
      String descriptor = QUEUE + ":" + shard + alias;
      assertRefused(
          () ->
              api.lookupJobs(TestServer.CONTEXT, new PinLaterLookupJobRequest(List.of(descriptor))),
          "malformed job descriptor '" + descriptor + "'");
    }
    assertThat(api.lookupJobs(TestServer.CONTEXT, new PinLaterLookupJobRequest(List.of(job))))
        .containsKey(job);
  }

  @Test
  void anEmptySourceIsRefusedByEveryCallAlike() throws Exception {
    RequestContext anonymous = new RequestContext("");

    assertRefused(
        () -> api.enqueueJobs(anonymous, new PinLaterEnqueueRequest(QUEUE, List.of(job("x")))),
        "a source is required");
    assertRefused(
        () -> api.dequeueJobs(anonymous, new PinLaterDequeueRequest(QUEUE, 1)),
        "a source is required");
    assertThat(
            api.getJobCount(
                TestServer.CONTEXT,
                new PinLaterGetJobCountRequest(QUEUE).setJobState(PinLaterJobState.PENDING)))
        .as("nothing was enqueued")
        .isZero();
  }

  @Test
  void anUnknownJobStateIsNamedAsSuch() throws Exception {
    // getJobCount(context, {queueName, jobState = 7}): 7 is no PinLaterJobState.
    TMemoryBuffer buffer = new TMemoryBuffer(128);
    TBinaryProtocol out = new TBinaryProtocol(buffer);
    out.writeMessageBegin(new TMessage("getJobCount", TMessageType.CALL, 1));
    out.writeStructBegin(new TStruct("args"));
    out.writeFieldBegin(new TField("context", TType.STRUCT, (short) 1));
    TestServer.CONTEXT.write(out);
    out.writeFieldEnd();
    out.writeFieldBegin(new TField("request", TType.STRUCT, (short) 2));
    out.writeStructBegin(new TStruct("request"));
    out.writeFieldBegin(new TField("queueName", TType.STRING, (short) 1));
    out.writeString(QUEUE);
    out.writeFieldEnd();
    out.writeFieldBegin(new TField("jobState", TType.I32, (short) 2));
    out.writeI32(7);
    out.writeFieldEnd();
    out.writeFieldStop();
    out.writeStructEnd();
    out.writeFieldEnd();
    out.writeFieldStop();
    out.writeStructEnd();
    out.writeMessageEnd();

    try (RawConnection connection = new RawConnection(server.port())) {
      connection.sendFrame(java.util.Arrays.copyOf(buffer.getArray(), buffer.length()));
      RawConnection.Reply reply = RawConnection.parse(connection.readFrame());

      assertThat(reply.header().type)
          .as("an answer of the service, not a protocol error")
          .isEqualTo(TMessageType.REPLY);
      PinLater.getJobCount_result result = new PinLater.getJobCount_result();
      result.read(reply.body());
      assertThat((Throwable) result.getE()).isNotNull();
      assertThat(result.getE().getMessage()).contains("jobState is missing or unknown");
    }
  }

  private String enqueueOne() throws Exception {
    return api.enqueueJobs(
            TestServer.CONTEXT, new PinLaterEnqueueRequest(QUEUE, List.of(job("body"))))
        .getJobDescriptors()
        .get(0);
  }

  private static PinLaterJob job(String body) {
    return new PinLaterJob(ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)));
  }

  private static void assertRefused(Executable call, String messagePart) {
    PinLaterException e = catchThrowableOfType(PinLaterException.class, call::execute);
    assertThat((Throwable) e).as("a PinLaterException").isNotNull();
    assertThat(e.getMessage()).contains(messagePart);
  }
}
