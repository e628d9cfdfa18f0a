package dev.flipper.launcher.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.flipper.text.Readable;
import dev.flipper.workflow.fleet.ExitSignal;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import dev.flipper.workflow.tokens.Listing;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code flipper workflow workers [--json]}: the worker processes by their heartbeats. */
@Command(
    name = "workers",
    mixinStandardHelpOptions = true,
    description = {
      "Lists the worker processes by their heartbeats: alive, retiring or dead.",
      "For each: name, host, generation, slots and jobs running. Alive means a heartbeat within 3 "
          + "workers.heartbeatInterval; retiring, an EXIT signal for a newer generation (it exits after its "
          + "jobs); dead, an older heartbeat. A worker that stopped cleanly is not listed; --forget-dead "
          + "deletes the heartbeats of dead ones. A heartbeat that does not parse is shown as a line "
          + "'DAMAGED <token>: <reason>' (in JSON, an entry with 'token' and 'damaged'). "
          + "Exit code 0; 1 if the master fails."
    },
    footer = {
      "",
      "Examples:",
      "  flipper workflow workers",
      "  flipper workflow workers --json",
      "  flipper workflow workers --forget-dead"
    })
public final class WorkersCommand implements Callable<Integer> {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Option(names = "--json", description = "Print one JSON document instead of a table.")
  boolean json;

  @Option(
      names = "--forget-dead",
      description =
          "Delete the heartbeats of dead workers first (killed processes "
              + "leave theirs), and say which.")
  boolean forgetDead;

  @Mixin MasterOptions master;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws JsonProcessingException {
    PrintWriter out = spec.commandLine().getOut();
    try (WorkflowClient client = new WorkflowClient(master)) {
      Heartbeats heartbeats = new Heartbeats(client.master);
      Instant now = Instant.now();
      List<String> forgotten = forgetDead ? heartbeats.forgetDead(now) : List.of();
      Listing<Heartbeat> listing = heartbeats.listing();
      List<Heartbeat> workers = listing.items();
      Optional<Integer> exit = new ExitSignal(client.master, Clock.systemUTC()).generation();
      if (json) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("exitGeneration", exit.orElse(null));
        document.put("forgotten", forgotten);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Heartbeat w : workers) {
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("name", w.name());
          row.put("host", w.host());
          row.put("adminUrl", w.adminUrl().orElse(null));
          row.put("generation", w.generation());
          row.put("slots", w.slots());
          row.put("running", w.running());
          row.put("state", state(w, now));
          row.put("lastBeat", w.beat().toString());
          row.put("ageSeconds", w.age(now).toSeconds());
          row.put("started", w.started().toString());
          rows.add(row);
        }
        listing.damaged().forEach(d -> rows.add(StatusJson.damaged(d)));
        document.put("workers", rows);
        out.println(JSON.writeValueAsString(document));
        return 0;
      }
      forgotten.forEach(name -> out.println("forgot dead worker " + name));
      exit.ifPresent(
          g ->
              out.println(
                  "EXIT signal: workers older than generation "
                      + g
                      + " finish their jobs and exit"
                      + " (flipper workflow unexit removes it)"));
      if (workers.isEmpty()) {
        out.println("no worker has published a heartbeat");
        listing.damaged().forEach(d -> out.println(d.row()));
        return 0;
      }
      out.println(
          String.format(
              "%-40s %-20s %4s %7s %-9s %9s  %s",
              "WORKER", "HOST", "GEN", "RUNNING", "STATE", "LAST BEAT", "JOBS"));
      for (Heartbeat w : workers) {
        out.println(
            String.format(
                "%-40s %-20s %4d %3d/%-3d %-9s %9s  %s",
                w.name(),
                w.host(),
                w.generation(),
                w.running().size(),
                w.slots(),
                state(w, now),
                Readable.duration(w.age(now)),
                String.join(" ", w.running())));
      }
      listing.damaged().forEach(d -> out.println(d.row()));
      return 0;
    }
  }

  private static String state(Heartbeat w, Instant now) {
    return !w.aliveAt(now) ? "dead" : w.retiring() ? "retiring" : "alive";
  }
}
