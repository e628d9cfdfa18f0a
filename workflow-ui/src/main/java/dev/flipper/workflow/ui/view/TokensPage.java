package dev.flipper.workflow.ui.view;

import java.util.List;

/** The token browser at a path ({@code /tokens?path=/workflow/}). Immutable. */
public record TokensPage(
    Banner banner, String path, List<String> crumbs, List<TokenEntry> entries) {
  public TokensPage {
    crumbs = List.copyOf(crumbs);
    entries = List.copyOf(entries);
  }
}
