package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A workflow whose description is 2 MB: the workflows list stays small (no description in it) and
 * does not parse the unchanged definition again at each request (that parse took over a second);
 * the workflow's own page has the whole description.
 */
class UiLargeDefinitionTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String DESCRIPTION = "long text ".repeat(200_000);
  private UiFixture fixture;

  @BeforeEach
  void start() {
    fixture = new UiFixture().seed();
    fixture.engine.definitions().apply(List.of(big(DESCRIPTION)));
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  private static WorkflowDefinition big(String description) {
    return WorkflowDefinition.builder("big")
        .description(description)
        .job(JobDefinition.builder("only").command("true"))
        .build();
  }

  @Test
  void workflowsListStaysSmallAndTheWorkflowPageHasTheWholeDescription() throws Exception {
    for (String path : List.of("/", "/api/workflows")) {
      String list = get(path);
      assertThat(list).as(path).contains("big").doesNotContain("long text long text");
      assertThat(list.length()).as(path).isLessThan(20_000);
    }
    assertThat(get("/api/workflows/big")).contains(DESCRIPTION);
    assertThat(get("/workflows/big")).contains(DESCRIPTION);
  }

  @Test
  void anUnchangedDefinitionIsParsedOnceAndAChangedOneAgain() {
    DefinitionCache cache = new DefinitionCache(fixture.client);

    for (int i = 0; i < 3; i++) {
      assertThat(cache.listing().items())
          .extracting(d -> d.name())
          .containsExactlyInAnyOrder("etl", "big");
    }
    assertThat(cache.get("big")).isPresent();
    assertThat(cache.parses()).as("etl and big, once each").isEqualTo(2);

    fixture.engine.definitions().apply(List.of(big("short now")));

    assertThat(cache.get("big").orElseThrow().definition().description()).isEqualTo("short now");
    assertThat(cache.listing().items()).hasSize(2);
    assertThat(cache.parses()).isEqualTo(3);
  }

  private String get(String path) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(fixture.base() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path).isEqualTo(200);
    return response.body();
  }
}
