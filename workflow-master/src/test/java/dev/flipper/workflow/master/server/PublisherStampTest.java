package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import dev.flipper.workflow.fleet.WorkerLogUrls;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.thrift.ModifyRequest;
import dev.flipper.workflow.master.thrift.Token;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Worker logs are fetched from the address that published the worker's heartbeat, which the master
 * writes into it: a heartbeat naming another server (MariaDB on 127.0.0.1:3306) cannot make the UI
 * or {@code flipper workflow logs} fetch from there. 127.0.0.2 is this machine too, a distinct
 * source address.
 */
class PublisherStampTest {
  private TokenMasterServer server;
  private TokenMasterClient reader;

  @BeforeEach
  void start() {
    server =
        TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
            .port(0)
            .build()
            .start();
    reader = TokenMasterClient.builder("127.0.0.1", server.port()).build();
  }

  @AfterEach
  void stop() {
    reader.close();
    server.close();
  }

  @Test
  void aForgedHeartbeatNamingALocalServerSendsLogFetchesToItsWriter() throws Exception {
    try (Socket from = new Socket()) {
      from.bind(new InetSocketAddress("127.0.0.2", 0));
      from.connect(new InetSocketAddress("127.0.0.1", server.port()));
      TokenMasterService.Client forger =
          new TokenMasterService.Client(new TBinaryProtocol(new TSocket(from)));
      forger.modify(
          new ModifyRequest()
              .setUpdates(
                  List.of(
                      new Token()
                          .setName(Heartbeats.tokenName("evil"))
                          .setData(
                              "{\"kind\":\"worker\",\"name\":\"evil\","
                                  + "\"adminUrl\":\"http://127.0.0.1:3306\","
                                  + "\"publisher\":\"127.0.0.1\"}"))));
    }

    assertThat(new WorkerLogUrls(reader).fetchable("http://127.0.0.1:3306/logs/etl/1/a/1/stdout"))
        .isEqualTo("http://127.0.0.2:3306/logs/etl/1/a/1/stdout");
  }

  @Test
  void aWorkersLogIsFetchedFromTheAddressItsHeartbeatCameFrom() {
    Instant now = Instant.now();
    new Heartbeats(reader)
        .beat(
            new Heartbeat(
                "w1",
                "worker7.example.com",
                Optional.of("http://worker7.example.com:9093"),
                1,
                4,
                List.of(),
                false,
                now,
                now,
                Duration.ofMinutes(1)));

    WorkerLogUrls logs = new WorkerLogUrls(reader);
    assertThat(logs.fetchable("http://worker7.example.com:9093/logs/etl/1/a/1/stdout?offset=5"))
        .isEqualTo("http://127.0.0.1:9093/logs/etl/1/a/1/stdout?offset=5");
    assertThatThrownBy(
            () -> logs.fetchable("http://worker8.example.com:9093/logs/etl/1/a/1/stdout"))
        .isInstanceOf(WorkerLogUrls.RefusedException.class)
        .hasMessageContaining("not on a known worker");
  }
}
