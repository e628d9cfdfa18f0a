package dev.flipper.workflow.mail;

/**
 * HTML escaping for text from workflows (names, commands, log paths) placed in messages. Stateless.
 */
final class Html {
  private Html() {}

  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** A link, both parts escaped. */
  static String link(String url, String label) {
    return "<a href=\"" + escape(url) + "\">" + escape(label) + "</a>";
  }
}
