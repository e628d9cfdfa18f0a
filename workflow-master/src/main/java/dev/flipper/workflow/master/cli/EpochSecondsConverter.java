package dev.flipper.workflow.master.cli;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A time given as epoch seconds (Pinball's form) or as ISO-8601 with a zone or offset. Stateless.
 */
final class EpochSecondsConverter implements ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    String text = value.trim();
    if (text.matches("-?\\d+")) {
      return Long.parseLong(text);
    }
    try {
      return Instant.parse(text).getEpochSecond();
    } catch (DateTimeParseException notUtc) {
      try {
        return OffsetDateTime.parse(text).toEpochSecond();
      } catch (DateTimeParseException e) {
        throw new TypeConversionException(
            "'"
                + value
                + "' is not a time: give epoch seconds (1900000000) or "
                + "ISO-8601 with a zone (2030-03-17T17:46:40Z or 2030-03-17T18:46:40+01:00)");
      }
    }
  }
}
