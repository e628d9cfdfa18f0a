package dev.flipper.bench;

import java.util.Locale;

/**
 * Cells of the benchmarks' tables: a figure, or "-" where nothing was measured, never NaN.
 * Stateless.
 */
final class Cells {
  static final String NONE = "-";

  private Cells() {}

  /** The value in the format (Locale.ROOT), or "-" if it is NaN or infinite. */
  static String of(String format, double value) {
    return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : NONE;
  }
}
