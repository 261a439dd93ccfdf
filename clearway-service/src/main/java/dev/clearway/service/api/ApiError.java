package dev.clearway.service.api;

/** The body of every 4xx and 5xx answer: a stable machine code and a human message. */
public record ApiError(String code, String message) {}
