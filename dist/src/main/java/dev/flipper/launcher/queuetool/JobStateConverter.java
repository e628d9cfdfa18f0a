package dev.flipper.launcher.queuetool;

import dev.flipper.queue.JobState;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --job_state} as PinLater's number (0-3) or the state's name, in any case. Stateless. */
final class JobStateConverter implements ITypeConverter<JobState> {
  @Override
  public JobState convert(String value) {
    try {
      return JobState.fromCode(Integer.parseInt(value.trim()));
    } catch (NumberFormatException e) {
      try {
        return JobState.valueOf(value.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException notAName) {
        throw badState(value);
      }
    } catch (RuntimeException outOfRange) {
      throw badState(value);
    }
  }

  private static TypeConversionException badState(String value) {
    return new TypeConversionException(
        "'"
            + value
            + "' is not a job state; allowed: 0 PENDING, 1 IN_PROGRESS, "
            + "2 SUCCEEDED, 3 FAILED (number or name)");
  }
}
