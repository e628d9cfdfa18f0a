package dev.flipper.workflow.mail;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Addresses of UI pages for links in messages, under {@code ui.baseUrl} (docs/workflows.md,
 * "E-mail"):
 *
 * <pre>
 * /workflows/&lt;wf&gt;                              a workflow and its instances
 * /workflows/&lt;wf&gt;/instances/&lt;id&gt;                an instance: graph and jobs
 * /workflows/&lt;wf&gt;/instances/&lt;id&gt;/jobs/&lt;job&gt;     a job: its executions and their logs
 * </pre>
 *
 * An empty base URL gives paths without a host. Immutable.
 */
public record UiLinks(String baseUrl) {
  /** No base URL: links are paths without a host. */
  public static final UiLinks NONE = new UiLinks("");

  public UiLinks {
    baseUrl = baseUrl == null ? "" : baseUrl.strip().replaceAll("/+$", "");
  }

  public String workflow(String workflow) {
    return baseUrl + "/workflows/" + segment(workflow);
  }

  public String instance(String workflow, String instance) {
    return workflow(workflow) + "/instances/" + segment(instance);
  }

  public String job(String workflow, String instance, String job) {
    return instance(workflow, instance) + "/jobs/" + segment(job);
  }

  /**
   * Names are {@code [A-Za-z0-9_-]}, so this changes nothing today; it keeps a bad name from
   * breaking a link.
   */
  private static String segment(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
