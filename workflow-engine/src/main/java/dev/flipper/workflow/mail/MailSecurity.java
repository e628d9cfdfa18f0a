package dev.flipper.workflow.mail;

/** How the connection to the SMTP server is protected. */
public enum MailSecurity {
  /** Plain SMTP (a relay on localhost or a trusted network). */
  NONE,
  /** Plain connection upgraded with STARTTLS, which is then required (usually port 587). */
  STARTTLS,
  /** TLS from the first byte, "SMTPS" (usually port 465). */
  TLS
}
