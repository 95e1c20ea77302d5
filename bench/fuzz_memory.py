"""The server's memory under 10,000 fuzzed requests: it must stay within 20 % of where it started, with no 5xx.

    .venv/bin/python bench/fuzz_memory.py [--requests 10000]

The requests are bench/fuzz_requests.py's (the same generator the no-5xx test uses), sent with the table's PIN so
they reach the routes' checks, to a whole companion (synthetic camera, mock pins) in its own process. Memory is
the server's resident set (VmRSS) after a warm-up of 300 requests, then every 1,000.
"""

from __future__ import annotations

import argparse
import http.client
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import served  # noqa: E402
from fuzz_requests import random_request  # noqa: E402
from machine import describe, machine_line  # noqa: E402

WARM_UP = 300


def send(port: int, pin: str, rng: random.Random) -> int:
    method, path, body, headers = random_request(rng)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body or None, headers={**headers, "X-Table-Pin": pin})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def run(requests: int = 10_000, seed: int = 19) -> dict[str, object]:
    machine = describe()
    print(machine_line(machine))
    companion = served.start()
    rng = random.Random(seed)
    statuses: Counter[int] = Counter()
    try:
        for _ in range(WARM_UP):
            statuses[send(companion.port, companion.pin, rng)] += 1
        start_mb = companion.rss_mb()
        samples = [round(start_mb, 1)]
        began = time.monotonic()
        for n in range(1, requests + 1):
            statuses[send(companion.port, companion.pin, rng)] += 1
            if n % 1000 == 0:
                samples.append(round(companion.rss_mb(), 1))
        seconds = time.monotonic() - began
        end_mb = companion.rss_mb()
    finally:
        companion.stop()
    errors = sum(count for status, count in statuses.items() if status >= 500)
    growth = 100 * (end_mb - start_mb) / start_mb
    print(f"fuzzed requests: {requests} after {WARM_UP} to warm up, {requests / seconds:.0f} per second")
    print(f"answers: {dict(sorted(statuses.items()))}; 5xx: {errors}")
    print(f"server RSS: {start_mb:.1f} MB -> {end_mb:.1f} MB ({growth:+.1f} %; goal within 20 %); "
          f"every 1000: {samples}")
    return {"machine": machine, "requests": requests, "statuses": {str(k): v for k, v in sorted(statuses.items())},
            "server_errors": errors, "rss_start_mb": round(start_mb, 1), "rss_end_mb": round(end_mb, 1),
            "rss_growth_percent": round(growth, 1), "rss_every_1000_mb": samples}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=10_000)
    run(parser.parse_args().requests)
