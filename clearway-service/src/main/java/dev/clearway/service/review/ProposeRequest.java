package dev.clearway.service.review;

/** An operator's proposal: what to do, under which ticket, why, and on what evidence. */
public record ProposeRequest(String kind, String ticket, String reason, String evidence) {}
