#!/usr/bin/env python3
"""CPU samples of a flight recording by layer, as BENCHMARKS.md reports them.

Usage: bench/jfr-layers.py RECORDING.jfr [payments] [--last SECONDS]

Reads `jfr print --events jdk.ExecutionSample --stack-depth 128` and puts each sample in the layer
of the innermost frame (top of the stack first) that names one; a sample under class loading counts
as class loading. Prints samples per layer (and per payment when `payments` is given), then the
request threads' samples by the outermost frame that names a stage of the request. With `--last
SECONDS`, only the samples of the recording's last SECONDS (the measured time of a `bench api
--jfr` recording, which also covers the warm-up); `payments` are then the measured ones.

Execution samples see Java frames only: the JIT compiler threads, GC and time in native code are
not in them (read each thread's CPU from /proc/PID/task/*/stat for those).
"""
import collections
import re
import subprocess
import sys

# Checked in this order for each frame, innermost first: the first frame that matches decides.
LAYERS = [
    ("class loading", ("java.lang.ClassLoader.loadClass", "jdk.internal.loader.",
                       "org.springframework.boot.loader.")),
    ("metrics and observation (Micrometer)", ("io.micrometer.",)),
    ("JSON (Jackson)", ("tools.jackson.", "com.fasterxml.jackson.")),
    ("JDBC (driver, pool)", ("org.postgresql.", "com.zaxxer.hikari.", "org.mariadb.")),
    ("JDK HTTP client", ("jdk.internal.net.http.", "java.net.http.")),
    ("simulators", ("dev.clearway.sim.", "org.eclipse.jetty.", "sun.net.httpserver.",
                    "com.sun.net.httpserver.")),
    ("callbacks (signature, inbox)", ("dev.clearway.service.api.CallbackController",
                                      "dev.clearway.core.callback.", "WebhookSignature",
                                      "JdbcCallbackInbox")),
    ("API and Idempotency-Key", ("dev.clearway.service.", "dev.clearway.core.idempotency.")),
    ("engine and store", ("dev.clearway.",)),
    ("servlet and Spring (Tomcat, MVC, filters)", ("org.apache.catalina.", "org.apache.coyote.",
                                                  "org.apache.tomcat.", "org.springframework.",
                                                  "jakarta.servlet.")),
]

# The request threads' stages, by the innermost frame among these (first match from the top).
STAGES = [
    ("response JSON", ("AbstractJackson", "JacksonJsonHttpMessageConverter.write",
                       "HttpMessageConverter.write", "writeWithMessageConverters")),
    ("request JSON", ("readWithMessageConverters", "HttpMessageConverter.read")),
    ("payment controller and below", ("dev.clearway.service.api.PaymentController",)),
    ("callback controller and below", ("dev.clearway.service.api.CallbackController",)),
    ("Spring MVC around the controller", ("org.springframework.web.servlet.",)),
    ("API-key filter", ("dev.clearway.service.api.ApiKeyFilter",)),
    ("HTTP server observation filter", ("ServerHttpObservationFilter",)),
    ("other filters", ("org.apache.catalina.core.ApplicationFilterChain",)),
    ("connector (parsing, I/O)", ("org.apache.coyote.", "org.apache.tomcat.")),
]


def samples(path):
    out = subprocess.run(
        ["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "128", path],
        check=True, capture_output=True, text=True).stdout
    for event in out.split("jdk.ExecutionSample")[1:]:
        thread = re.search(r'sampledThread = "([^"]*)"', event)
        frames = re.findall(r"^\s+([\w$.<>/]+)\(", event, re.M)
        at = re.search(r"startTime = (\d+):(\d+):([\d.]+)", event)
        seconds = int(at.group(1)) * 3600 + int(at.group(2)) * 60 + float(at.group(3)) if at else 0
        yield (thread.group(1) if thread else "?"), frames, seconds


def first(frames, table, default):
    for frame in frames:
        for name, prefixes in table:
            if any(p in frame for p in prefixes):
                return name
    return default


def main():
    args = sys.argv[1:]
    last = None
    if "--last" in args:
        i = args.index("--last")
        last = float(args[i + 1])
        del args[i:i + 2]
    path = args[0]
    payments = int(args[1]) if len(args) > 1 else 0
    layers = collections.Counter()
    stages = collections.Counter()
    total = 0
    taken = list(samples(path))
    if last is not None and taken:
        end = max(seconds for _, _, seconds in taken)
        taken = [t for t in taken if t[2] >= end - last]
    for thread, frames, _ in taken:
        total += 1
        layers[first(frames, LAYERS, "other Java")] += 1
        if thread.startswith("http-nio"):
            stages[first(frames, STAGES, "other")] += 1
    print(f"{total} samples" + (f", {payments} payments" if payments else ""))
    for name, n in layers.most_common():
        per = f"  {n / payments:.4f}/payment" if payments else ""
        print(f"  {name:45s} {n:6d} ({100 * n / total:4.1f}%){per}")
    tomcat = sum(stages.values())
    print(f"request threads: {tomcat} samples")
    for name, n in stages.most_common():
        print(f"  {name:45s} {n:6d} ({100 * n / max(tomcat, 1):4.1f}%)")


if __name__ == "__main__":
    main()
