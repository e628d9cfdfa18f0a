package dev.flipper.thrift.fuzz;

import dev.flipper.workflow.master.thrift.ArchiveRequest;
import dev.flipper.workflow.master.thrift.GroupRequest;
import dev.flipper.workflow.master.thrift.ModifyRequest;
import dev.flipper.workflow.master.thrift.Query;
import dev.flipper.workflow.master.thrift.QueryRequest;
import dev.flipper.workflow.master.thrift.Token;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.util.List;
import org.apache.thrift.TException;

/** Valid master calls under /fuzz/, the seeds that {@link FuzzInputs#unframed} mutates. */
public final class MasterCalls {
  private MasterCalls() {}

  /** query, modify, group and archive, as unframed messages. */
  public static List<byte[]> forFuzzing() throws TException {
    Token token = new Token("/fuzz/a").setData("data").setOwner("fuzz").setExpirationTime(1L);
    return List.of(
        FuzzInputs.call(
            "query",
            new TokenMasterService.query_args(
                new QueryRequest().setQueries(List.of(new Query().setNamePrefix("/fuzz/")))),
            7,
            true),
        FuzzInputs.call(
            "modify",
            new TokenMasterService.modify_args(new ModifyRequest().setUpdates(List.of(token))),
            7,
            false),
        FuzzInputs.call(
            "group",
            new TokenMasterService.group_args(
                new GroupRequest().setNamePrefix("/fuzz/").setGroupSuffix("/")),
            7,
            true),
        FuzzInputs.call(
            "archive",
            new TokenMasterService.archive_args(
                new ArchiveRequest().setTokens(List.of(new Token("/fuzz/b").setVersion(1)))),
            7,
            true));
  }
}
