package dev.flipper.workflow.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HeartbeatsTest {
  private static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");
  private final TokenMaster master =
      TokenService.builder(InMemoryTokenStore.create())
          .clock(Clock.fixed(T0, ZoneOffset.UTC))
          .build();
  private final Heartbeats heartbeats = new Heartbeats(master);
  private final ExitSignal exit = new ExitSignal(master, Clock.fixed(T0, ZoneOffset.UTC));

  private static Heartbeat beat(String name, int generation, Instant at, List<String> running) {
    return new Heartbeat(
        name,
        "h",
        Optional.of("http://h:1"),
        generation,
        2,
        running,
        false,
        T0,
        at,
        Duration.ofSeconds(15));
  }

  @Test
  void aBeatReplacesTheLastOneAndIsRemovedAtAStop() {
    heartbeats.beat(beat("w1", 1, T0, List.of()));
    heartbeats.beat(beat("w1", 1, T0.plusSeconds(5), List.of("etl/1/a")));
    heartbeats.beat(beat("w2", 2, T0, List.of()));

    List<Heartbeat> listed = heartbeats.list();
    assertThat(listed).extracting(Heartbeat::name).containsExactly("w1", "w2");
    assertThat(listed.get(0)).isEqualTo(beat("w1", 1, T0.plusSeconds(5), List.of("etl/1/a")));

    assertThat(heartbeats.remove("w1")).isTrue();
    assertThat(heartbeats.remove("w1")).isFalse();
    assertThat(heartbeats.list()).extracting(Heartbeat::name).containsExactly("w2");
  }

  @Test
  void forgetDeadDeletesOnlyTheDead() {
    heartbeats.beat(beat("dead", 1, T0.minusSeconds(60), List.of()));
    heartbeats.beat(beat("alive", 1, T0.minusSeconds(10), List.of()));

    assertThat(heartbeats.forgetDead(T0)).containsExactly("dead");
    assertThat(heartbeats.list()).extracting(Heartbeat::name).containsExactly("alive");
    assertThat(heartbeats.forgetDead(T0)).isEmpty();
  }

  @Test
  void aProcessOwnsTheSlotsNamedAfterIt() {
    Heartbeat beat = beat("host-7-42-a1b2c3", 1, T0, List.of());
    assertThat(beat.ownsSlot("host-7-42-3-a1b2c3")).isTrue();
    assertThat(beat.ownsSlot("host-7-42-a1b2c3")).isFalse();
    assertThat(beat.ownsSlot("host-7-43-3-a1b2c3")).isFalse();
    assertThat(beat.ownsSlot("host-7-42-x-a1b2c3")).isFalse();
    assertThat(beat.ownsSlot(null)).isFalse();
  }

  @Test
  void aBeatOlderThanDeadAfterIsDead() {
    Heartbeat beat = beat("w1", 1, T0, List.of());
    assertThat(beat.aliveAt(T0.plusSeconds(15))).isTrue();
    assertThat(beat.aliveAt(T0.plusSeconds(16))).isFalse();
    assertThat(beat.age(T0.minusSeconds(3))).isEqualTo(Duration.ZERO);
  }

  @Test
  void aBeatReturnsThePendingExitGeneration() {
    assertThat(heartbeats.beat(beat("w1", 1, T0, List.of()))).isEmpty();
    assertThat(exit.set(2)).isEqualTo(new ExitSignal.Change(Optional.empty(), Optional.of(2)));
    assertThat(heartbeats.beat(beat("w1", 1, T0, List.of()))).contains(2);
    assertThat(beat("w1", 1, T0, List.of()).takesWork(Optional.of(2))).isFalse();
    assertThat(beat("w2", 2, T0, List.of()).takesWork(Optional.of(2))).isTrue();
  }

  @Test
  void exitAndUnexitChangeOnceAndSayWhat() {
    assertThat(exit.set(2).changed()).isTrue();
    assertThat(exit.set(2).changed()).as("the same call again").isFalse();
    assertThat(exit.set(3)).isEqualTo(new ExitSignal.Change(Optional.of(2), Optional.of(3)));
    assertThat(exit.generation()).contains(3);
    assertThat(exit.clear()).isEqualTo(new ExitSignal.Change(Optional.of(3), Optional.empty()));
    assertThat(exit.clear().changed()).isFalse();
    assertThat(exit.generation()).isEmpty();
  }
}
