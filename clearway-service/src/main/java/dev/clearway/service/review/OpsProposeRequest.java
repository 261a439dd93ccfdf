package dev.clearway.service.review;

/**
 * An operator's proposal on a refund order, an attempt or a compensation: which target, what to do,
 * under which ticket, why, and on what evidence (for a confirmation, the PSP's reference); for a
 * charge of another amount refunded or handed to finance, the amount charged (minor units).
 */
public record OpsProposeRequest(
    Long targetId, String kind, String ticket, String reason, String evidence, Long amount) {}
