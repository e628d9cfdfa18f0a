package dev.flipper.workflow.engine.internal;

import dev.flipper.history.RunArchive;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.RunRecords;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.Owners;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Archives finished instances once their archive delay has passed. The archive token written at the
 * end of an instance is leased until it is due, so one claim on {@code /archive/} returns exactly
 * the due instances, and workers calling this at once never archive the same instance twice. Each
 * instance goes in one archive call: its record, jobs, events, runnable tokens, instance signals
 * and the archive token, with the instance's run and executions for the run history in the same
 * call. Thread-safe.
 */
public final class Archiver {
  /** Instances archived per claim. */
  private static final int BATCH = 10;

  /** How long an archiver holds a due instance; if it dies, another one takes it after this. */
  private static final long HOLD_SECONDS = 300;

  private static final Logger LOG = LoggerFactory.getLogger(Archiver.class);

  private final TokenMaster master;
  private final Clock clock;
  private final Notices notices;

  public Archiver(TokenMaster master, Clock clock, Notices notices) {
    this.master = master;
    this.clock = clock;
    this.notices = notices;
  }

  /** Archives every due instance; returns how many. */
  public int archiveDue() {
    int archived = 0;
    while (true) {
      long hold = JobTransitions.ceilSeconds(clock.millis()) + HOLD_SECONDS;
      List<Token> due =
          master.queryAndOwn(
              new QueryAndOwnParams(Owners.ARCHIVER, hold, Query.top(TokenLayout.ARCHIVE, BATCH)));
      for (Token archiveToken : due) {
        if (archive(archiveToken)) {
          archived++;
        }
      }
      if (due.size() < BATCH) {
        return archived;
      }
    }
  }

  /**
   * The run history's record of the instance; empty (archived without one, warned) when its record
   * is missing or a token does not parse: the tokens are archived all the same, so the run stays
   * readable from the archive.
   */
  private static Optional<RunArchive> history(String wf, String inst, List<Token> tokens) {
    try {
      Optional<RunArchive> history = RunRecords.archive(wf, inst, tokens);
      if (history.isEmpty()) {
        LOG.warn("instance {}/{} has no record; archived without a run history entry", wf, inst);
      }
      return history;
    } catch (RuntimeException e) {
      LOG.warn(
          "instance {}/{} has a damaged token; archived without a run history entry: {}",
          wf,
          inst,
          e.getMessage());
      return Optional.empty();
    }
  }

  private boolean archive(Token archiveToken) {
    String[] parts = TokenLayout.parseArchive(archiveToken.name());
    String wf = parts[0];
    String inst = parts[1];
    List<List<Token>> read =
        master.query(
            List.of(
                Query.prefix(TokenLayout.instancePrefix(wf, inst)),
                Query.prefix(TokenLayout.runnablePrefix(wf, inst)),
                Query.prefix(TokenLayout.instanceSignalPrefix(wf, inst))));
    List<Token> tokens = new ArrayList<>();
    read.forEach(tokens::addAll);
    tokens.add(archiveToken);
    try {
      Optional<RunArchive> history = history(wf, inst, tokens);
      if (history.isPresent()) {
        master.archive(tokens, history.get());
      } else {
        master.archive(tokens);
      }
      LOG.info("archived instance {}/{} ({} tokens)", wf, inst, tokens.size());
      String recordName = TokenLayout.instanceRecord(wf, inst);
      tokens.stream()
          .filter(t -> t.name().equals(recordName))
          .findFirst()
          .ifPresent(
              record -> notices.instanceArchived(Json.read(record, InstanceData.class), tokens));
      return true;
    } catch (TokenException e) {
      // Something changed in between: the hold ends in a few minutes and the next call tries again.
      LOG.warn("could not archive instance {}/{} now: {}", wf, inst, e.getMessage());
      return false;
    }
  }
}
