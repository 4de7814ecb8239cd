#!/usr/bin/env python3
"""A bounded load test of `asalto serve`: REQUESTS requests from CLIENTS
clients (threads, each on its own keep-alive connection) against a server
already running at URL, cycling over a mix of the API's routes and the
page. Every answer must have its expected status (200, or 400 for the bad
position) and a body; prints the latencies (p50, p90, p99, max) and exits
1 on any error. Python's standard library only.

    scripts/serve-load.py URL [REQUESTS] [CLIENTS]
    scripts/serve-load.py http://127.0.0.1:8080 2000 16
"""

import http.client
import sys
import threading
import time
import urllib.parse

# Ten soldiers, the soldiers to move (tables built for it by serve-load.sh),
# its child after d4-d5 (officers to move), and a position of nine soldiers
# outside those tables (solved on demand: 5,400 positions).
TEN = "SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s"
TEN_CHILD = "SSS/1O1/1SSSS1O/2S1S2/3S3/3/3 o"
TINY = "SSS/SSS/O1SS3/4S2/6O/3/3 s"


def q(route, position, variant="assaut"):
    return f"/api/v1/{route}?" + urllib.parse.urlencode(
        {"variant": variant, "position": position}
    )


# (path, expected status)
MIX = [
    (q("query", TEN), 200),
    (q("query", TEN_CHILD), 200),
    (q("bestmove", TEN_CHILD), 200),
    (q("moves", "start"), 200),
    (q("query", TINY), 200),
    (q("query", "3/OXO/7/7/7/3/3 s"), 400),
    ("/", 200),
    ("/api/v1/board", 200),
]


def client(host, port, paths, latencies, errors):
    conn = http.client.HTTPConnection(host, port, timeout=60)
    for path, want in paths:
        start = time.perf_counter()
        try:
            conn.request("GET", path)
            r = conn.getresponse()
            body = r.read()
            status = r.status
        except Exception as e:  # a refused or dropped connection
            errors.append(f"{path}: {e!r}")
            conn.close()
            conn = http.client.HTTPConnection(host, port, timeout=60)
            continue
        latencies.append(time.perf_counter() - start)
        if status != want or not body:
            errors.append(f"{path}: HTTP {status}, expected {want}: {body[:200]!r}")
    conn.close()


def percentile(sorted_values, p):
    i = min(len(sorted_values) - 1, int(round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[i]


def main():
    url = urllib.parse.urlparse(sys.argv[1])
    requests = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    clients = int(sys.argv[3]) if len(sys.argv) > 3 else 16
    plan = [MIX[i % len(MIX)] for i in range(requests)]
    latencies, errors = [], []
    threads = [
        threading.Thread(
            target=client,
            args=(url.hostname, url.port, plan[c::clients], latencies, errors),
        )
        for c in range(clients)
    ]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - start
    ms = sorted(x * 1000 for x in latencies)
    print(f"requests: {requests} from {clients} clients, {len(MIX)} kinds in turn")
    print(f"answered: {len(ms)} in {seconds:.2f} s ({len(ms) / seconds:.0f} requests/s)")
    if ms:
        print(
            "latency ms: p50 {:.2f}, p90 {:.2f}, p99 {:.2f}, max {:.2f}".format(
                percentile(ms, 50), percentile(ms, 90), percentile(ms, 99), ms[-1]
            )
        )
    print(f"errors: {len(errors)}")
    for e in errors[:10]:
        print(f"  {e}")
    sys.exit(1 if errors or len(ms) != requests else 0)


if __name__ == "__main__":
    main()
