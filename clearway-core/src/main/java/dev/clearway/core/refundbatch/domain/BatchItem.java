package dev.clearway.core.refundbatch.domain;

/** One payment of a batch as the runner pages it. */
public record BatchItem(long id, long batchId, long flowId, long accountId, long amount) {}
