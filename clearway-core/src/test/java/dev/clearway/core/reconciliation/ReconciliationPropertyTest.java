package dev.clearway.core.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.reconciliation.decision.RepairCommand;
import dev.clearway.core.reconciliation.decision.RepairCommand.NoRepair;
import dev.clearway.core.reconciliation.decision.RepairCommand.OpenTicket;
import dev.clearway.core.reconciliation.decision.RepairCommand.Wait;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Over seeded random days: a consistent day shows no difference; the same day with one injected
 * difference shows exactly that one, whose repair is of the class's kind.
 */
class ReconciliationPropertyTest {
  private static final int SEEDS = 400;

  @Test
  void consistentDaysShowNoDifference() {
    for (long seed = 0; seed < SEEDS; seed++) {
      DayGenerator day = new DayGenerator(seed).consistent(5 + (int) (seed % 20));

      List<Difference> found = Run.day(day.facts, day.shuffledLines());

      assertThat(found).as("seed %d: %s", seed, found).isEmpty();
    }
  }

  @Test
  void oneInjectedDifferenceIsFoundAloneWithItsRepair() {
    DifferenceClass[] classes = DifferenceClass.values();
    for (long seed = 0; seed < SEEDS; seed++) {
      Random pick = new Random(seed ^ 0x5DEECE66DL);
      DifferenceClass injected = classes[pick.nextInt(classes.length)];
      DayGenerator day = new DayGenerator(seed).consistent(3 + pick.nextInt(20));
      day.inject(injected);
      day.consistent(pick.nextInt(5));

      List<Difference> found = Run.day(day.facts, day.shuffledLines());

      String why = "seed " + seed + ", injected " + injected + ", found " + found;
      assertThat(found).as(why).hasSize(1);
      Difference d = found.get(0);
      assertThat(d.kind()).as(why).isEqualTo(injected);
      assertRepairOfItsKind(d, why);
    }
  }

  @Test
  void everyClassIsInjectedWithinTheSeeds() {
    DifferenceClass[] classes = DifferenceClass.values();
    java.util.Set<DifferenceClass> seen = java.util.EnumSet.noneOf(DifferenceClass.class);
    for (long seed = 0; seed < SEEDS; seed++) {
      seen.add(classes[new Random(seed ^ 0x5DEECE66DL).nextInt(classes.length)]);
    }
    assertThat(seen).containsExactlyInAnyOrder(classes);
  }

  private static void assertRepairOfItsKind(Difference d, String why) {
    RepairCommand late = Run.repair(d, Day.LATE);
    switch (d.kind().repairKind()) {
      case AUTO_SETTLE_PAID,
          AUTO_REFUND_LATE_CHARGE,
          AUTO_CONFIRM_BUSINESS,
          AUTO_SETTLE_REFUND,
          AUTO_REFUND_UNATTRIBUTED ->
          assertThat(late).as(why).isNotInstanceOfAny(OpenTicket.class, Wait.class, NoRepair.class);
      case WAIT_THEN_PERSON -> {
        assertThat(Run.repair(d, Day.EARLY)).as(why).isInstanceOf(Wait.class);
        assertThat(late).as(why).isInstanceOf(OpenTicket.class);
      }
      case NEEDS_PERSON -> assertThat(late).as(why).isInstanceOf(OpenTicket.class);
    }
  }
}
