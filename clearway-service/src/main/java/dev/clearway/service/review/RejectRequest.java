package dev.clearway.service.review;

/** An approver's rejection and its reason. */
public record RejectRequest(String reason) {}
