package dev.clearway.core.channel.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.engine.AttemptRecorder.Observation;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Each named observation is the positional one it replaces. */
class ObservationTest {

  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private static final PspOutcome ANSWER = PspOutcome.pending("pi_1");
  private static final Attempt ATTEMPT =
      new Attempt(
          7,
          "t_1",
          1,
          1,
          AttemptOrigin.INITIAL,
          null,
          "k7",
          "0".repeat(64),
          null,
          AttemptStatus.CREATED,
          ResultCertainty.UNKNOWN,
          null,
          false,
          false,
          new Attempt.Money(500, "EUR", "card"),
          0,
          0L,
          T0);

  @Test
  void createdIsTheFirstCreateUnderTheCreationLease() {
    assertThat(Observation.created(ATTEMPT, ANSWER, null, "v1", "gateway/1"))
        .isEqualTo(
            new Observation(
                ATTEMPT,
                ANSWER,
                EvidenceSource.RESPONSE,
                "CREATE",
                true,
                false,
                null,
                0,
                null,
                "v1",
                "gateway/1"));
  }

  @Test
  void replayedIsAReplayUnderTheCallersLease() {
    assertThat(Observation.replayed(ATTEMPT, ANSWER, null, "v1", 3L, 2, "w1/1"))
        .isEqualTo(
            new Observation(
                ATTEMPT,
                ANSWER,
                EvidenceSource.RESPONSE,
                "REPLAY",
                false,
                true,
                3L,
                2,
                null,
                "v1",
                "w1/1"));
  }

  @Test
  void queriedTakesTheRunFromTheClaimedTask() {
    RecoveryTask task =
        new RecoveryTask(
            3,
            7,
            1,
            RecoveryTask.TaskStatus.LEASED,
            "RETRIEVE",
            T0,
            2,
            "w1/1",
            T0.plusSeconds(30),
            "v1",
            4);
    assertThat(Observation.queried(ATTEMPT, ANSWER, RecoveryStrategy.RETRIEVE, task, null))
        .isEqualTo(
            new Observation(
                ATTEMPT,
                ANSWER,
                EvidenceSource.QUERY,
                "RETRIEVE",
                false,
                false,
                3L,
                2,
                null,
                "v1",
                "w1/1"));
  }

  @Test
  void observedHoldsNoLease() {
    assertThat(
            Observation.observed(ATTEMPT, ANSWER, EvidenceSource.CALLBACK, "WEBHOOK", null, "v1"))
        .isEqualTo(
            new Observation(
                ATTEMPT,
                ANSWER,
                EvidenceSource.CALLBACK,
                "WEBHOOK",
                false,
                false,
                null,
                0,
                null,
                "v1",
                null));
  }
}
