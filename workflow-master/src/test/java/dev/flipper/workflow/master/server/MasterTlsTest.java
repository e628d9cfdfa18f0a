package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.tls.TlsFolder;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.tokens.TokenLayout;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The master with TLS over real sockets: only certificates of the deployment's authority get in,
 * and each role changes only what docs/security.md allows.
 */
class MasterTlsTest {
  private static final byte ALERT = 21; // a TLS record's content type

  @TempDir Path certificates;
  @TempDir Path otherAuthority;

  private final MetricRegistry metrics = new MetricRegistry();
  private final List<TokenMasterClient> clients = new ArrayList<>();
  private TlsFolder folder;
  private TokenMasterServer server;

  @BeforeEach
  void start() throws Exception {
    folder = TlsFolder.init(certificates, List.of(), Clock.systemUTC());
    server =
        TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
            .port(0)
            .messageReadTimeout(Duration.ofSeconds(2))
            .metrics(metrics)
            .tls(folder.identity("master"))
            .build()
            .start();
  }

  @AfterEach
  void stop() {
    clients.forEach(TokenMasterClient::close);
    server.close();
  }

  private TokenMasterClient client(TlsFolder from, String name) throws Exception {
    TokenMasterClient client =
        TokenMasterClient.builder("127.0.0.1", server.port())
            .connectAttempts(1)
            .tls(from.identity(name))
            .build();
    clients.add(client);
    return client;
  }

  private TokenMasterClient as(String name) throws Exception {
    return client(folder, name);
  }

  private static Token write(TokenMasterClient client, String name) {
    return client.modify(ModifyParams.updating(Token.of(name, "{}"))).get(0);
  }

  @Test
  void aClientWithoutCertificateIsRefused() {
    TokenMasterClient plain =
        TokenMasterClient.builder("127.0.0.1", server.port()).connectAttempts(1).build();
    clients.add(plain);

    assertThatThrownBy(() -> plain.query(Query.prefix("/")))
        .isInstanceOf(TokenException.class)
        .hasMessageContaining("the connection to the master");
    await().until(() -> metrics.counter("master.peer_faults.tls_handshake").getCount() >= 1);
  }

  @Test
  void aCertificateOfAnotherAuthorityIsRefused() throws Exception {
    TokenMasterClient stranger =
        client(TlsFolder.init(otherAuthority, List.of(), Clock.systemUTC()), "admin");

    assertThatThrownBy(() -> stranger.query(Query.prefix("/")))
        .isInstanceOf(TokenException.class)
        .hasMessageContaining("TLS handshake with 127.0.0.1:" + server.port() + " failed");
    await().until(() -> metrics.counter("master.peer_faults.tls_handshake").getCount() == 1);
  }

  @Test
  void aConnectionThatNeverFinishesItsHandshakeIsClosedAtTheMessageReadTimeout() throws Exception {
    try (Socket silent = new Socket("127.0.0.1", server.port())) {
      // A TLS record header announcing 100 bytes, then nothing more.
      silent.getOutputStream().write(new byte[] {22, 3, 1, 0, 100, 1});
      silent.getOutputStream().flush();
      silent.setSoTimeout(10_000);
      InputStream in = silent.getInputStream();

      byte[] answer = in.readAllBytes(); // ends: the master closed the connection
      assertThat(answer.length == 0 || answer[0] == ALERT)
          .as("only TLS alerts: %s", java.util.Arrays.toString(answer))
          .isTrue();
    }
    await().until(() -> server.connectionCount() == 0);
    assertThat(metrics.counter("master.peer_faults.tls_handshake").getCount()).isEqualTo(1);
  }

  @Test
  void aWorkerChangesItsOwnTokensOnly() throws Exception {
    TokenMasterClient worker = as("workers");

    write(worker, TokenLayout.runnable("etl", "1", "extract"));
    write(worker, TokenLayout.WORKERS + "host7");
    assertThat(
            worker.queryAndOwn(
                QueryAndOwnParams.of(
                    "host7",
                    java.time.Instant.now().plusSeconds(60),
                    Query.top(TokenLayout.RUNNABLE, 1))))
        .hasSize(1);
    assertThatThrownBy(() -> write(worker, TokenLayout.definition("etl")))
        .isInstanceOf(TokenException.class)
        .hasMessageContaining("role worker may not write /definition/etl")
        .extracting(e -> ((TokenException) e).errorCode())
        .isEqualTo(TokenErrorCode.INPUT_ERROR);
    assertThatThrownBy(() -> write(worker, ScheduleTokens.PREFIX + "etl"))
        .hasMessageContaining("role worker may not write /schedule/etl");
    assertThatThrownBy(
            () ->
                worker.queryAndOwn(
                    QueryAndOwnParams.of(
                        "host7", java.time.Instant.now().plusSeconds(60), Query.top("/", 1))))
        .hasMessageContaining("role worker may not claim tokens under /");
    assertThat(metrics.counter("master.refused.worker").getCount()).isEqualTo(3);
    assertThat(as("operator").query(Query.prefix(TokenLayout.DEFINITIONS))).isEmpty();
  }

  @Test
  void anOperatorAppliesAndControlsButOnlyAnAdminDeletesADefinition() throws Exception {
    TokenMasterClient operator = as("operator");
    Token definition = write(operator, TokenLayout.definition("etl"));
    write(
        operator,
        TokenLayout.workflowSignal("etl", dev.flipper.workflow.engine.SignalAction.DRAIN));

    assertThatThrownBy(() -> operator.modify(ModifyParams.deleting(definition)))
        .hasMessageContaining("role operator may not delete /definition/etl");
    assertThatThrownBy(() -> operator.deleteArchived("/workflow/etl/"))
        .hasMessageContaining("role operator may not delete archived tokens under /workflow/etl/");
    assertThatThrownBy(() -> as("ui").modify(ModifyParams.deleting(definition)))
        .hasMessageContaining("role ui may not delete /definition/etl");

    as("admin").modify(ModifyParams.deleting(definition));
    assertThat(as("admin").query(Query.prefix(TokenLayout.DEFINITIONS))).isEmpty();
    assertThat(as("admin").deleteArchived("/workflow/etl/")).isZero();
  }

  @Test
  void applicationsAndServersOnlyRead() throws Exception {
    write(as("operator"), TokenLayout.definition("etl"));

    for (String readOnly : List.of("app", "queue", "master")) {
      TokenMasterClient client = as(readOnly);
      assertThat(client.query(Query.prefix(TokenLayout.DEFINITIONS))).hasSize(1);
      assertThatThrownBy(() -> write(client, TokenLayout.WORKFLOWS + "etl/1/x"))
          .hasMessageContaining("role " + readOnly + " may not write /workflow/etl/1/x");
    }
  }

  @Test
  void closingTheMasterDoesNotWaitForIdleClientsToCloseTheirTls() throws Exception {
    TokenMasterClient idle = as("operator");
    idle.query(Query.prefix("/")); // its connection now waits in the pool, open

    long start = System.nanoTime();
    server.close();

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void theAreasAreTheEnginesTokenLayout() {
    assertThat(
            List.of(
                MasterPermissions.DEFINITIONS,
                MasterPermissions.WORKFLOWS,
                MasterPermissions.RUNNABLE,
                MasterPermissions.ARCHIVE,
                MasterPermissions.SIGNALS,
                MasterPermissions.WORKERS,
                MasterPermissions.SCHEDULES))
        .containsExactly(
            TokenLayout.DEFINITIONS,
            TokenLayout.WORKFLOWS,
            TokenLayout.RUNNABLE,
            TokenLayout.ARCHIVE,
            TokenLayout.SIGNALS,
            TokenLayout.WORKERS,
            ScheduleTokens.PREFIX);
    assertThat(TokenLayout.instanceSignalPrefix("wf", "1"))
        .startsWith(MasterPermissions.INSTANCE_SIGNALS);
  }
}
