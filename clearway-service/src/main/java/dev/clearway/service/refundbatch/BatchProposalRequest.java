package dev.clearway.service.refundbatch;

import java.util.List;

/**
 * The body of a batch proposal: the merchant and scene whose paid goals are refunded, optionally a
 * window of payment creation times ({@code paidFrom} inclusive, {@code paidTo} exclusive, ISO-8601
 * instants) and a list of business keys, the ticket (at most 64 characters) and the reason (500).
 */
public record BatchProposalRequest(
    String merchant,
    String scene,
    String paidFrom,
    String paidTo,
    List<String> bizKeys,
    String ticket,
    String reason) {}
