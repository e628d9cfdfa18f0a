package dev.flipper.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RunStateTest {

  @Test
  void startsOnceAndOnlyTheFirstCloseOfARunningInstanceStopsIt() {
    RunState state = new RunState("test server");
    assertThat(state.get()).isEqualTo(RunState.State.NEW);

    state.start();
    assertThat(state.isRunning()).isTrue();
    assertThatThrownBy(state::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("test server can be started once; it is RUNNING");

    assertThat(state.close()).isTrue();
    assertThat(state.close()).isFalse();
    assertThat(state.isRunning()).isFalse();
    assertThatThrownBy(state::start).hasMessage("test server can be started once; it is CLOSED");
  }

  @Test
  void closingANewInstanceHasNothingToStopAndPreventsAStart() {
    RunState state = new RunState("test server");

    assertThat(state.close()).isFalse();
    assertThatThrownBy(state::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void namedThreadsAreNumberedDaemons() {
    NamedThreadFactory factory = new NamedThreadFactory("flipper-test");
    Thread first = factory.newThread(() -> {});
    Thread second = factory.newThread(() -> {});

    assertThat(first.getName()).isEqualTo("flipper-test-1");
    assertThat(second.getName()).isEqualTo("flipper-test-2");
    assertThat(first.isDaemon()).isTrue();
  }

  @Test
  void aDaemonIsReadyWhenEveryComponentIs() {
    assertThat(daemon(Map.of("a", true, "b", true)).isReady()).isTrue();
    assertThat(daemon(Map.of("a", true, "b", false)).isReady()).isFalse();
    assertThat(daemon(Map.of()).isReady()).as("no component, nothing ready").isFalse();
  }

  private static Daemon<Void> daemon(Map<String, Boolean> readiness) {
    return new Daemon<>() {
      @Override
      public void start() {}

      @Override
      public Map<String, Boolean> readiness() {
        return readiness;
      }

      @Override
      public void close() {}
    };
  }
}
