package dev.flipper.launcher;

import dev.flipper.queue.PasswordHash;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.springframework.security.crypto.bcrypt.BCrypt;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flipper hash-password}: prints the hash to put in {@code queue.adminPasswordHash}, or with
 * {@code --bcrypt} a {@code ui.users} entry's {@code passwordHash}.
 */
@Command(
    name = "hash-password",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Prints the hash of a password, for queue.adminPasswordHash or (with --bcrypt) a ui.users entry.",
      "Without --bcrypt, the SHA-256 hash for queue.adminPasswordHash (the password deleteQueue needs); "
          + "with --bcrypt, the BCrypt hash for the passwordHash of a ui.users entry (web UI sign-in).",
      "Reads the password from the terminal without echo, else the first line of standard input."
    })
final class HashPasswordCommand implements Callable<Integer> {
  @Option(
      names = {"-p", "--password"},
      paramLabel = "PASSWORD",
      description =
          "The password (visible in the process list and shell history: prefer standard input).")
  String password;

  @Option(names = "--bcrypt", description = "A BCrypt hash (cost 12), for ui.users[].passwordHash.")
  boolean bcrypt;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    String secret = password != null ? password : read();
    if (secret == null || secret.isEmpty()) {
      return Launcher.usageError(
          spec.commandLine().getErr(), "hash-password: the password must not be empty");
    }
    spec.commandLine()
        .getOut()
        .println(bcrypt ? BCrypt.hashpw(secret, BCrypt.gensalt(12)) : PasswordHash.of(secret));
    return 0;
  }

  private static String read() throws IOException {
    Console console = System.console();
    if (console != null) {
      char[] typed = console.readPassword("Password: ");
      return typed == null ? null : new String(typed);
    }
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    return in.readLine();
  }
}
