package dev.flipper.token.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The original master's tests (Pinball's transaction_test, master_handler_test) on the same tree:
 * 10 parents {@code /some_dir/some_token_i} (priority i), each with 10 children {@code
 * .../some_child_j} (priority j). Parent 0's lease is running, parent 1's has expired. Flipper
 * keeps its version counter outside the token namespace, so there is no {@code
 * /__BLESSED_VERSION__} token: counts are one lower than the original's.
 */
abstract class OriginalMasterContract extends TokenContractArea {

  List<Token> tree() {
    List<Token> tokens = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Token parent = Token.of("/some_dir/some_token_" + i, "some_data_" + i).withPriority(i);
      if (i == 0) {
        parent = parent.withOwner("some_owner", nowSeconds() + 1000);
      } else if (i == 1) {
        parent = parent.withOwner("some_owner", nowSeconds() - 1);
      }
      tokens.add(parent);
      for (int j = 0; j < 10; j++) {
        tokens.add(
            Token.of("/some_dir/some_token_" + i + "/some_child_" + j, "some_data_" + i + "_" + j)
                .withPriority(j));
      }
    }
    return master().modify(new ModifyParams(tokens, List.of()));
  }

  @Test
  void archivingTwoTokensMovesThemAndKeepsTheTotal() {
    List<Token> tree = tree();

    master().archive(List.of(tree.get(3), tree.get(50)));

    assertThat(all()).hasSize(108).doesNotContain(tree.get(3), tree.get(50));
    assertThat(fx().store().queryArchived("")).containsExactlyInAnyOrder(tree.get(3), tree.get(50));
  }

  @Test
  void groupingByTheDelimiterGivesTenGroupsOfEleven() {
    tree();

    Map<String, Integer> groups = master().group("/some_dir/", "/");

    assertThat(groups).hasSize(10);
    for (int i = 0; i < 10; i++) {
      assertThat(groups).containsEntry("/some_dir/some_token_" + i, 11);
    }
  }

  @Test
  void deletingTwoTokensShrinksTheTreeByTwo() {
    List<Token> tree = tree();

    master().modify(ModifyParams.deleting(tree.get(7), tree.get(8)));

    List<Token> left = all();
    assertThat(left).hasSize(108);
    assertThat(new HashSet<>(versions(left))).hasSize(108);
  }

  @Test
  void anUpdateAndAnInsertReturnTwoTokensAndGrowTheTreeByOne() {
    List<Token> tree = tree();
    Token updated = tree.get(12);

    List<Token> written =
        master().modify(ModifyParams.updating(updated, Token.of("/some_other_dir/new", "new")));

    assertThat(written).hasSize(2);
    assertThat(written.get(0).version()).isNotEqualTo(updated.version());
    assertThat(written.get(0).name()).isEqualTo(updated.name());
    assertThat(written.get(0).data()).isEqualTo(updated.data());
    assertThat(written.get(1).version()).isPositive();
    assertThat(all()).hasSize(111);
  }

  @Test
  void renamingWithAnOldVersionFailsAndChangesNothing() {
    List<Token> tree = tree();
    Token renamed = new Token(tree.get(5).version(), "/some_dir/renamed", null, 0, 0, "x");

    assertFails(
        TokenErrorCode.NOT_FOUND, () -> master().modify(ModifyParams.updating(renamed)), "renamed");
    assertFails(
        TokenErrorCode.VERSION_CONFLICT,
        () ->
            master().modify(ModifyParams.updating(tree.get(6).withVersion(tree.get(5).version()))),
        tree.get(6).name());

    assertThat(all()).containsExactlyInAnyOrderElementsOf(tree);
  }

  @Test
  void aMixedDeleteAndUpdateReturnsTheUpdateOnly() {
    List<Token> tree = tree();

    List<Token> written =
        master().modify(ModifyParams.updating(tree.get(20)).withDeletes(tree.get(21)));

    assertThat(written).hasSize(1);
    assertThat(all()).hasSize(109);
  }

  @Test
  void queriesTakeTopPrioritiesOrWholeSubtrees() {
    tree();

    List<Token> top = master().query(Query.top("/some_dir", 10));
    List<Token> subtree = master().query(Query.top("/some_dir/some_token_0", 100));

    assertThat(top).hasSize(10).allSatisfy(t -> assertThat(t.priority()).isEqualTo(9));
    assertThat(subtree).hasSize(11);
  }

  @Test
  void queryAndOwnOfEverythingSkipsOnlyTheRunningLease() {
    tree();
    long leaseEnd = nowSeconds() + 300;

    List<Token> claimed =
        master().queryAndOwn(new QueryAndOwnParams("new_owner", leaseEnd, Query.top("", 200)));

    assertThat(claimed).hasSize(109);
    assertThat(names(claimed))
        .doesNotContain("/some_dir/some_token_0")
        .contains("/some_dir/some_token_1");
    assertThat(claimed)
        .allSatisfy(
            t -> {
              assertThat(t.owner()).isEqualTo("new_owner");
              assertThat(t.expirationTime()).isEqualTo(leaseEnd);
            });
  }

  @Test
  void onAnEmptyStoreEveryCallAnswersEmpty() { // master_handler_test (there: the blessed version
    // only)
    assertThat(master().group("/", "/")).isEmpty();
    assertThat(master().query(List.of(Query.prefix("/")))).containsExactly(List.of());
    assertThat(
            master().queryAndOwn(new QueryAndOwnParams("o", nowSeconds() + 10, Query.prefix("/"))))
        .isEmpty();
    master().archive(List.of());
    assertThat(master().modify(new ModifyParams(List.of(), List.of()))).isEmpty();
  }
}
