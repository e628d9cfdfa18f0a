package dev.flipper.workflow.ui.view;

import java.text.NumberFormat;
import java.util.Locale;

/**
 * Where a page of a long list is: its number, the last one, and the rows it shows, for the
 * pagination bar. Immutable.
 *
 * @param page 1-based
 * @param pages at least 1
 * @param first 1-based number of the page's first row; 0 when it shows none
 * @param last 1-based number of the page's last row; 0 when it shows none
 */
public record Paging(int page, int pages, long first, long last, long total) {
  public static Paging of(int page, int size, int shown, long total) {
    long first = shown == 0 ? 0 : (long) (page - 1) * size + 1;
    return new Paging(
        page,
        (int) Math.max(1, (total + size - 1) / size),
        first,
        shown == 0 ? 0 : first + shown - 1,
        total);
  }

  /** {@code 1–50 of 100,000}, or {@code 0 of 100,000} past the end. */
  public String text() {
    NumberFormat n = NumberFormat.getIntegerInstance(Locale.ENGLISH);
    return (shown() ? n.format(first) + "–" + n.format(last) : "0") + " of " + n.format(total);
  }

  public boolean shown() {
    return first > 0;
  }
}
