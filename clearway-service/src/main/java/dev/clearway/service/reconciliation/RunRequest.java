package dev.clearway.service.reconciliation;

/** The body of a run on demand: the account and the statement day ({@code YYYY-MM-DD}). */
public record RunRequest(String account, String date) {}
