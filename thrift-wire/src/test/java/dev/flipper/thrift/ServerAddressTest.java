package dev.flipper.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ServerAddressTest {

  @Test
  void parsesHostPortWithTheLastColon() {
    assertThat(ServerAddress.parse(" queue1.example:9010 "))
        .isEqualTo(new ServerAddress("queue1.example", 9010));
    assertThat(ServerAddress.parse("[::1]:9010")).isEqualTo(new ServerAddress("::1", 9010));
    assertThatThrownBy(() -> ServerAddress.parse("queue1")).hasMessageContaining("host:port");
    assertThatThrownBy(() -> ServerAddress.parse("queue1:x")).hasMessageContaining("not a number");
    assertThatThrownBy(() -> ServerAddress.parse("queue1:0")).hasMessageContaining("1..65535");
  }

  @Test
  void serverSetFilesSkipBlankAndCommentLines() {
    assertThat(ServerSetFile.parse("a:1\n\n# spare\r\nb:2\n", "servers"))
        .containsExactly(new ServerAddress("a", 1), new ServerAddress("b", 2));
    assertThatThrownBy(() -> ServerSetFile.parse("a:1\nbroken\n", "servers"))
        .hasMessageStartingWith("servers line 2");
  }
}
