package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.thrift.ErrorCode;
import dev.flipper.queue.thrift.PinLaterEnqueueRequest;
import dev.flipper.queue.thrift.PinLaterException;
import dev.flipper.queue.thrift.PinLaterJob;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Large frames cannot stall the queue server for others, an oversized enqueue is answered rather
 * than cut off, and a dequeue never claims more than one answer can carry. All through a real
 * server over TCP.
 */
class FrameBudgetTest {
  private static final int SIXTEEN_MIB = 16 * 1024 * 1024;
  private final List<Socket> peers = new ArrayList<>();
  private TestServer server;

  @AfterEach
  void stop() throws IOException {
    for (Socket socket : peers) {
      socket.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void eightPartialMaximalFramesDoNotStallOtherClients() throws Exception {
    server = TestServer.start(b -> b); // default limits: 16 MiB frames, a read budget of 8 frames
    for (int i = 0; i < 8; i++) {
      Socket peer = peer("127.0.0.2");
      peer.getOutputStream()
          .write(ByteBuffer.allocate(8).putInt(SIXTEEN_MIB - 4).putInt(0).array());
    }

    // libthrift's selector server gave those 8 frames its whole budget and made every later frame
    // wait.
    try (TestServer.ThriftClient client = clientWithTimeout(1_000)) {
      for (int call = 0; call < 10; call++) {
        assertThat(client.api().getQueueNames(TestServer.CONTEXT)).isNotNull();
      }
    }
    assertThat(server.server.isRunning()).isTrue();
  }

  @Test
  void aPeerTricklingAFrameByteByByteIsClosedAtTheFrameReadTimeout() throws Exception {
    server =
        TestServer.start(
            b -> b.frameReadTimeout(Duration.ofMillis(500)).idleTimeout(Duration.ofMinutes(1)));
    Socket trickler = peer("127.0.0.2");
    OutputStream out = trickler.getOutputStream();
    out.write(ByteBuffer.allocate(4).putInt(1000).array());
    Thread trickle =
        new Thread(
            () -> {
              try {
                for (int i = 0; i < 999; i++) { // one byte every 20 ms: never idle, never done
                  out.write(0);
                  out.flush();
                  Thread.sleep(20);
                }
              } catch (IOException | InterruptedException closed) {
                // closed by the server (or the test): stop
              }
            });
    trickle.start();

    trickler.setSoTimeout(15_000);
    try {
      assertThat(trickler.getInputStream().read())
          .as("end of stream from the server")
          .isEqualTo(-1);
    } catch (SocketTimeoutException stillOpen) {
      throw new AssertionError("the trickling connection is still open after 15 s", stillOpen);
    } catch (IOException reset) {
      // a reset is a close too
    }
    trickle.interrupt();
    assertThat(server.metrics.counter("PinLaterService.peer_faults.frame_read_timeout").getCount())
        .isEqualTo(1);
  }

  @Test
  void anOversizedEnqueueIsAnsweredEnqueueRejectedAndTheConnectionStaysUsable() throws Exception {
    server = TestServer.start(b -> b.maxFrameBytes(64 * 1024));
    server.service.createQueue("big_q");
    PinLaterJob job = new PinLaterJob(ByteBuffer.wrap(new byte[100 * 1024]));

    try (TestServer.ThriftClient client = clientWithTimeout(10_000)) {
      assertThatThrownBy(
              () ->
                  client
                      .api()
                      .enqueueJobs(
                          TestServer.CONTEXT, new PinLaterEnqueueRequest("big_q", List.of(job))))
          .isInstanceOfSatisfying(
              PinLaterException.class,
              e -> {
                assertThat(e.getErrorCode()).isEqualTo(ErrorCode.ENQUEUE_REJECTED);
                assertThat(e.getMessage())
                    .contains("larger than the server's frame limit")
                    .contains("65536");
              });
      assertThat(client.api().getQueueNames(TestServer.CONTEXT)).contains("big_q");
    }
    assertThat(server.metrics.counter("PinLaterService.peer_faults.frame_too_large").getCount())
        .isEqualTo(1);
  }

  @Test
  void aDequeueOfTwentyOneMibJobsReturnsFewerAndStrandsNone() throws Exception {
    server = TestServer.start(b -> b); // maxFrameBytes 16 MiB, maxBodyBytes 1 MiB
    server.service.createQueue("mib_q");
    byte[] body = new byte[1024 * 1024];
    for (int i = 0; i < 20; i++) {
      server.service.enqueue("mib_q", List.of(NewJob.of(body)));
    }

    Set<JobDescriptor> received = new HashSet<>();
    try (QueueClient client =
        QueueClient.builder()
            .server("127.0.0.1", server.port())
            .source("test:localhost")
            .maxAttempts(1)
            .build()) {
      for (int dequeue = 0; dequeue < 5 && received.size() < 20; dequeue++) {
        List<DequeuedJob> jobs = client.dequeue("mib_q", 20);
        assertThat(jobs.size()).as("jobs in one answer").isLessThan(20);
        for (DequeuedJob job : jobs) {
          // A dequeue reports the attempts left before this claim: all of them, so no lost answer
          // used one.
          assertThat(job.attemptsRemaining())
              .as("attempts left of %s", job.descriptor())
              .isEqualTo(job.attemptsAllowed());
          received.add(job.descriptor());
        }
      }
    }
    assertThat(received).hasSize(20);
  }

  private TestServer.ThriftClient clientWithTimeout(int millis) throws Exception {
    TSocket socket = new TSocket("127.0.0.1", server.port(), millis);
    TFramedTransport transport = new TFramedTransport(socket, 64 * 1024 * 1024);
    transport.open();
    return new TestServer.ThriftClient(
        new dev.flipper.queue.thrift.PinLater.Client(
            new org.apache.thrift.protocol.TBinaryProtocol(transport)),
        transport);
  }

  private Socket peer(String address) throws IOException {
    Socket socket = new Socket();
    socket.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
    socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
    peers.add(socket);
    return socket;
  }
}
