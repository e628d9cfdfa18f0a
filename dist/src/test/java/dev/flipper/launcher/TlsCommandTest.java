package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.tls.Role;
import dev.flipper.tls.TlsFolder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code flipper tls init} and {@code flipper tls issue} through the launcher. */
class TlsCommandTest {
  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Launcher.execute(args, new PrintWriter(out), new PrintWriter(err));
  }

  @Test
  void initWritesTheAuthorityAndEveryStandardCertificateAndSaysWhatNext() throws Exception {
    Path tls = dir.resolve("tls");

    assertThat(run("tls", "init", "--dir", tls.toString(), "--host", "flipper1.example.com"))
        .isZero();

    for (String name : TlsFolder.STANDARD.keySet()) {
      assertThat(TlsFolder.at(tls).identity(name).subject().role())
          .isEqualTo(TlsFolder.STANDARD.get(name));
    }
    assertThat(out.toString())
        .contains("workers    role worker")
        .contains("flipper1.example.com")
        .contains("security: {tls: true, certificates: " + tls.toAbsolutePath() + "}");
  }

  @Test
  void initRefusesAFolderThatHasAnAuthority() {
    run("tls", "init", "--dir", dir.toString());

    assertThat(run("tls", "init", "--dir", dir.toString())).isEqualTo(1);
    assertThat(err.toString()).contains("already holds an authority");
  }

  @Test
  void issueAddsOneCertificateWithTheRoleGiven() throws Exception {
    run("tls", "init", "--dir", dir.toString());

    assertThat(run("tls", "issue", "--dir", dir.toString(), "--name", "alice", "--role", "admin"))
        .isZero();

    assertThat(TlsFolder.at(dir).identity("alice").subject().role()).isEqualTo(Role.ADMIN);
    assertThat(Files.exists(dir.resolve("alice.key"))).isTrue();
    assertThat(out.toString()).contains("security.identity: alice");
  }

  @Test
  void issueNamesTheAllowedRolesForAnUnknownOne() {
    run("tls", "init", "--dir", dir.toString());

    assertThat(run("tls", "issue", "--dir", dir.toString(), "--name", "bob", "--role", "root"))
        .isEqualTo(Launcher.EXIT_USAGE);
    assertThat(err.toString()).contains("unknown role \"root\"").contains(Role.labels());
  }
}
