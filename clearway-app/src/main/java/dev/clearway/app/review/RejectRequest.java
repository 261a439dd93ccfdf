package dev.clearway.app.review;

/** An approver's rejection and its reason. */
public record RejectRequest(String reason) {}
