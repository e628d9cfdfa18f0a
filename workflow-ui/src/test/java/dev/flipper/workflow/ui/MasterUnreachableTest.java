package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * A UI whose master is down still answers: 503 with "master unreachable" in the JSON and the page
 * banner.
 */
class MasterUnreachableTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void pagesAndApiSayTheMasterIsUnreachable() throws Exception {
    try (UiFixture fixture = new UiFixture()) {
      String address = "127.0.0.1:" + fixture.server.port();
      fixture.server.close();

      HttpResponse<String> api =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(fixture.base() + "/api/workflows")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(api.statusCode()).isEqualTo(503);
      assertThat(api.body()).contains("\"error\":\"master unreachable at " + address);

      HttpResponse<String> page =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(fixture.base() + "/")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(page.statusCode()).isEqualTo(503);
      assertThat(page.body())
          .contains("<div class=\"banner error\" role=\"alert\">master unreachable at " + address);
    }
  }
}
