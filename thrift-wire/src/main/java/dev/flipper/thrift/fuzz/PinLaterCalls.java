package dev.flipper.thrift.fuzz;

import dev.flipper.queue.thrift.PinLater;
import dev.flipper.queue.thrift.PinLaterDequeueRequest;
import dev.flipper.queue.thrift.PinLaterEnqueueRequest;
import dev.flipper.queue.thrift.PinLaterJob;
import dev.flipper.queue.thrift.PinLaterJobAckInfo;
import dev.flipper.queue.thrift.PinLaterJobAckRequest;
import dev.flipper.queue.thrift.PinLaterLookupJobRequest;
import dev.flipper.queue.thrift.RequestContext;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.thrift.TException;

/** Valid queue-server calls on one queue, the seeds that {@link FuzzInputs#framed} mutates. */
public final class PinLaterCalls {
  private PinLaterCalls() {}

  /** getQueueNames, enqueueJobs, dequeueJobs with an ack, and lookupJobs, as unframed messages. */
  public static List<byte[]> on(String queue, RequestContext context) throws TException {
    PinLaterJob job = new PinLaterJob(ByteBuffer.wrap(new byte[] {1, 2, 3}));
    String descriptor = queue + ":s1:p1:1";
    PinLaterJobAckRequest ack =
        new PinLaterJobAckRequest(queue)
            .setJobsSucceeded(List.of(new PinLaterJobAckInfo(descriptor)));
    return List.of(
        FuzzInputs.call("getQueueNames", new PinLater.getQueueNames_args(context), 1, true),
        FuzzInputs.call(
            "enqueueJobs",
            new PinLater.enqueueJobs_args(
                context, new PinLaterEnqueueRequest(queue, List.of(job, job))),
            2,
            false),
        FuzzInputs.call(
            "dequeueJobs",
            new PinLater.dequeueJobs_args(
                context, new PinLaterDequeueRequest(queue, 3).setJobAckRequest(ack)),
            3,
            true),
        FuzzInputs.call(
            "lookupJobs",
            new PinLater.lookupJobs_args(
                context, new PinLaterLookupJobRequest(List.of(descriptor))),
            4,
            false));
  }
}
