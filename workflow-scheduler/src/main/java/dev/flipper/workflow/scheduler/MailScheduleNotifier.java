package dev.flipper.workflow.scheduler;

import dev.flipper.workflow.mail.Mailer;
import dev.flipper.workflow.mail.Notifications;
import dev.flipper.workflow.mail.UiLinks;
import java.time.Instant;
import java.util.List;

/**
 * Sends the scheduler's notifications by e-mail; {@link Mailer#send} queues and never throws.
 * Thread-safe.
 */
public final class MailScheduleNotifier implements ScheduleNotifier {
  private final Mailer mailer;
  private final Notifications notifications;

  /**
   * @param ui the UI's address ({@code ui.baseUrl}) for links
   */
  public MailScheduleNotifier(Mailer mailer, UiLinks ui) {
    this.mailer = mailer;
    this.notifications = new Notifications(ui);
  }

  @Override
  public void tooManyInstances(
      String workflow, int running, int maxRunning, Instant slot, List<String> recipients) {
    mailer.send(notifications.tooManyInstances(workflow, running, maxRunning, slot, recipients));
  }
}
