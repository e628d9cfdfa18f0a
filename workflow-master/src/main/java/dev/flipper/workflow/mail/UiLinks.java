package dev.flipper.workflow.mail;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Addresses of UI pages for links in messages, Pinball's paths ({@code /instances/?workflow=}, {@code
 * /jobs/?workflow=&instance=}, {@code /executions/?...}) under {@code ui.baseUrl}. Immutable.
 */
public record UiLinks(String baseUrl) {

  public UiLinks {
    baseUrl = baseUrl == null ? "" : baseUrl.replaceAll("/+$", "");
  }

  public String workflow(String workflow) {
    return baseUrl + "/instances/?workflow=" + q(workflow);
  }

  public String instance(String workflow, String instance) {
    return baseUrl + "/jobs/?workflow=" + q(workflow) + "&instance=" + q(instance);
  }

  public String job(String workflow, String instance, String job) {
    return baseUrl + "/executions/?workflow=" + q(workflow) + "&instance=" + q(instance) + "&job=" + q(job);
  }

  private static String q(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
