package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.CountParams;
import dev.flipper.queue.JobState;
import dev.flipper.queue.thrift.ErrorCode;
import dev.flipper.queue.thrift.PinLater;
import dev.flipper.queue.thrift.PinLaterDeleteJobsRequest;
import dev.flipper.queue.thrift.PinLaterDequeueRequest;
import dev.flipper.queue.thrift.PinLaterDequeueResponse;
import dev.flipper.queue.thrift.PinLaterEnqueueRequest;
import dev.flipper.queue.thrift.PinLaterException;
import dev.flipper.queue.thrift.PinLaterJob;
import dev.flipper.queue.thrift.PinLaterJobAckInfo;
import dev.flipper.queue.thrift.PinLaterJobAckRequest;
import dev.flipper.queue.thrift.PinLaterJobState;
import dev.flipper.tls.TlsFolder;
import dev.flipper.tls.TlsIdentity;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue server with mutual TLS: real handshakes over TCP with certificates of a deployment's
 * authority, and the roles they name deciding which calls run.
 */
class TlsQueueServerTest {
  private static final int MAX_FRAME = 16 * 1024 * 1024;

  @TempDir static Path certificates;
  @TempDir static Path otherCertificates;
  static TlsFolder folder;
  static TlsFolder otherFolder;

  @BeforeAll
  static void issue() throws Exception {
    folder = TlsFolder.init(certificates, List.of(), Clock.systemUTC());
    otherFolder = TlsFolder.init(otherCertificates, List.of(), Clock.systemUTC());
  }

  @Test
  void anApplicationEnqueuesDequeuesAndAcksButMayNotDelete() throws Exception {
    try (TestServer server = tlsServer(b -> b);
        Client app = connect(server, folder.identity("app"))) {
      server.service.createQueue("tls_q");

      List<String> ids =
          app.api
              .enqueueJobs(
                  TestServer.CONTEXT,
                  new PinLaterEnqueueRequest("tls_q", List.of(job("hello".getBytes()))))
              .getJobDescriptors();
      PinLaterDequeueResponse dequeued =
          app.api.dequeueJobs(TestServer.CONTEXT, new PinLaterDequeueRequest("tls_q", 5));
      assertThat(dequeued.getJobs()).containsOnlyKeys(ids);
      app.api.ackDequeuedJobs(
          TestServer.CONTEXT,
          new PinLaterJobAckRequest("tls_q")
              .setJobsSucceeded(List.of(new PinLaterJobAckInfo(ids.get(0)))));

      PinLaterException refused =
          catchThrowableOfType(
              PinLaterException.class,
              () ->
                  app.api.deleteJobs(
                      TestServer.CONTEXT,
                      new PinLaterDeleteJobsRequest("tls_q")
                          .setJobState(PinLaterJobState.SUCCEEDED)));

      assertThat(refused.getErrorCode()).isEqualTo(ErrorCode.PASSWORD_INVALID);
      assertThat(refused.getMessage()).startsWith("role app may not deleteJobs");
      assertThat(server.metrics.counter("queue.refused.app").getCount()).isEqualTo(1);
      assertThat(server.service.count(countSucceeded("tls_q"))).isEqualTo(1);
      // the connection stays usable after a refusal
      assertThat(app.api.getQueueNames(TestServer.CONTEXT)).contains("tls_q");
    }
  }

  @Test
  void anAdminMayDeleteAndAnOperatorMayNot() throws Exception {
    try (TestServer server = tlsServer(b -> b);
        Client admin = connect(server, folder.identity("admin"));
        Client operator = connect(server, folder.identity("operator"))) {
      admin.api.createQueue(TestServer.CONTEXT, "admin_q");
      admin.api.enqueueJobs(
          TestServer.CONTEXT, new PinLaterEnqueueRequest("admin_q", List.of(job(new byte[] {1}))));

      PinLaterException refused =
          catchThrowableOfType(
              PinLaterException.class,
              () ->
                  operator.api.deleteJobs(
                      TestServer.CONTEXT,
                      new PinLaterDeleteJobsRequest("admin_q")
                          .setJobState(PinLaterJobState.PENDING)));
      int deleted =
          admin.api.deleteJobs(
              TestServer.CONTEXT,
              new PinLaterDeleteJobsRequest("admin_q")
                  .setJobState(PinLaterJobState.PENDING)
                  .setPassword(TestServer.ADMIN_PASSWORD)); // the role and the password

      assertThat(refused.getMessage()).startsWith("role operator may not deleteJobs");
      assertThat(deleted).isEqualTo(1);
    }
  }

  @Test
  void aClientWithoutACertificateOrWithAnotherAuthoritysIsRefusedAtTheHandshake() throws Exception {
    try (TestServer server = tlsServer(b -> b)) {
      server.service.createQueue("closed_q");

      Throwable plain = catchThrowable(() -> plainThrift(server).getQueueNames(TestServer.CONTEXT));
      Throwable stranger = catchThrowable(() -> connect(server, otherFolder.identity("admin")));

      assertThat(plain).isInstanceOf(TTransportException.class);
      assertThat(stranger).isInstanceOf(SSLException.class);
      await()
          .atMost(Duration.ofSeconds(5))
          .until(
              () ->
                  server.metrics.counter("PinLaterService.peer_faults.tls_refused").getCount()
                      == 2);
    }
  }

  @Test
  void aLargeFrameGoesBothWaysThroughManyRecords() throws Exception {
    try (TestServer server = tlsServer(b -> b);
        Client app = connect(server, folder.identity("app"))) {
      server.service.createQueue("big_q");
      List<PinLaterJob> jobs = new ArrayList<>();
      Set<String> bodies = new HashSet<>();
      for (int j = 0; j < 6; j++) {
        byte[] body = new byte[1_000_000];
        Arrays.fill(body, (byte) ('a' + j));
        body[j] = '!';
        jobs.add(job(body));
        bodies.add(new String(body, StandardCharsets.ISO_8859_1));
      }

      app.api.enqueueJobs(TestServer.CONTEXT, new PinLaterEnqueueRequest("big_q", jobs));
      PinLaterDequeueResponse dequeued =
          app.api.dequeueJobs(TestServer.CONTEXT, new PinLaterDequeueRequest("big_q", 6));

      Set<String> got = new HashSet<>();
      for (ByteBuffer body : dequeued.getJobs().values()) {
        byte[] bytes = new byte[body.remaining()];
        body.get(bytes);
        got.add(new String(bytes, StandardCharsets.ISO_8859_1));
      }
      assertThat(got).isEqualTo(bodies);
    }
  }

  @Test
  void callsArriveWhole_whenTheirBytesComeAFewAtATime() throws Exception {
    try (TestServer server = tlsServer(b -> b);
        TrickleProxy proxy = new TrickleProxy(server.port(), 7)) {
      server.service.createQueue("trickle_q");
      try (Client app = connect(proxy.port(), folder.identity("app"))) {
        app.api.enqueueJobs(
            TestServer.CONTEXT,
            new PinLaterEnqueueRequest("trickle_q", List.of(job(new byte[40_000]))));

        assertThat(app.api.getQueueNames(TestServer.CONTEXT)).contains("trickle_q");
        assertThat(
                app.api
                    .dequeueJobs(TestServer.CONTEXT, new PinLaterDequeueRequest("trickle_q", 1))
                    .getJobs())
            .hasSize(1);
      }
    }
  }

  @Test
  void aClientThatStallsInTheHandshakeIsClosedByTheFrameReadTimeout() throws Exception {
    try (TestServer server = tlsServer(b -> b.frameReadTimeout(Duration.ofMillis(300)));
        Socket stalled = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      stalled.getOutputStream().write(new byte[] {0x16, 0x03, 0x01}); // a record header, no more
      stalled.setSoTimeout(10_000);

      assertThat(stalled.getInputStream().read()).isEqualTo(-1);
      await().atMost(Duration.ofSeconds(5)).until(() -> server.server.connectionCount() == 0);
    }
  }

  private static TestServer tlsServer(UnaryOperator<QueueServer.Builder> settings)
      throws Exception {
    TlsIdentity queue = folder.identity("queue");
    return TestServer.start(b -> settings.apply(b.tls(queue).maxFrameBytes(MAX_FRAME)));
  }

  private static PinLaterJob job(byte[] body) {
    return new PinLaterJob(ByteBuffer.wrap(body));
  }

  private static CountParams countSucceeded(String queue) {
    return CountParams.of(queue, JobState.SUCCEEDED);
  }

  private static PinLater.Client plainThrift(TestServer server) throws TTransportException {
    TFramedTransport transport =
        new TFramedTransport(new TSocket("127.0.0.1", server.port(), 5_000), MAX_FRAME);
    transport.open();
    return new PinLater.Client(new TBinaryProtocol(transport));
  }

  private static Client connect(TestServer server, TlsIdentity identity) throws Exception {
    return connect(server.port(), identity);
  }

  private static Client connect(int port, TlsIdentity identity) throws Exception {
    SSLSocket socket = identity.connect("localhost", port, 5_000);
    socket.setSoTimeout(20_000);
    TFramedTransport transport = new TFramedTransport(new TSocket(socket), MAX_FRAME);
    return new Client(new PinLater.Client(new TBinaryProtocol(transport)), transport);
  }

  record Client(PinLater.Client api, TFramedTransport transport) implements AutoCloseable {
    @Override
    public void close() {
      transport.close();
    }
  }

  /** Forwards a connection in both directions a few bytes per write, each flushed on its own. */
  static final class TrickleProxy implements AutoCloseable {
    private final ServerSocket listener;

    TrickleProxy(int targetPort, int chunk) throws Exception {
      listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  Socket client = listener.accept();
                  client.setTcpNoDelay(true);
                  Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                  target.setTcpNoDelay(true);
                  pump(client, target, chunk);
                  pump(target, client, chunk);
                } catch (Exception e) {
                  // the test fails on its own
                }
              },
              "trickle-accept");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    int port() {
      return listener.getLocalPort();
    }

    private static void pump(Socket from, Socket to, int chunk) {
      Thread pump =
          new Thread(
              () -> {
                byte[] buffer = new byte[chunk];
                try (InputStream in = from.getInputStream();
                    OutputStream out = to.getOutputStream()) {
                  int n;
                  while ((n = in.read(buffer)) > 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                  }
                } catch (Exception e) {
                  // either side closed
                }
              },
              "trickle-pump");
      pump.setDaemon(true);
      pump.start();
    }

    @Override
    public void close() throws Exception {
      listener.close();
    }
  }
}
