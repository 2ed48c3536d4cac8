#!/usr/bin/env python3
"""Turns a JMH JSON result of one Sediment suite into markdown tables.

Usage: bench_report.py <suite> <result.json>... [--mode M] [--stat median|mean] [--seconds S]
                       [--cores C] [--cpu X] [--jmh OPTS]

Every ratio divides two figures of the same run. Ratios read "how many times faster the second
side is": eager / lazy, other path / fast path.
"""
import argparse
import json
import math
import statistics
import sys


SPREADS = []


def load(paths, stat):
    """{(method, params-tuple): (figure, error)} in microseconds per operation.

    Pools the measurement iterations of every fork in every JSON file (one per round and
    benchmark). stat "median" (the default) is their median, which a burst of load from other
    processes on a shared machine moves far less than the mean; "mean" is their mean with the
    standard deviation as error.
    """
    samples = {}
    for path in paths:
        with open(path) as f:
            runs = json.load(f)
        for run in runs:
            method = run["benchmark"].rsplit(".", 1)[1]
            metric = run["primaryMetric"]
            if metric["scoreUnit"] != "us/op":
                sys.exit(f"bench_report: unexpected unit {metric['scoreUnit']} for {method}")
            params = tuple(sorted((run.get("params") or {}).items()))
            samples.setdefault((method, params), []).extend(
                x for fork in metric.get("rawData", []) for x in fork)
    out = {}
    for key, xs in samples.items():
        if not xs:
            continue
        SPREADS.append(max(xs) / min(xs))
        if stat == "median":
            out[key] = (statistics.median(xs), None)
        else:
            out[key] = (statistics.fmean(xs), statistics.stdev(xs) if len(xs) > 1 else None)
    return out


def us(score, error=None):
    if score is None:
        return "—"
    if score >= 1000:
        text = f"{score:,.0f}"
    elif score >= 100:
        text = f"{score:,.1f}"
    else:
        text = f"{score:.2f}"
    if error is not None and isinstance(error, (int, float)) and math.isfinite(error) and error > 0:
        text += f" ± {error:,.0f}" if error >= 100 else f" ± {error:.2g}"
    return text


def ratio(a, b):
    if a is None or b is None or b == 0:
        return "—"
    r = a / b
    if r >= 100:
        return f"×{r:,.0f}"
    if r >= 10:
        return f"×{r:.1f}"
    return f"×{r:.2f}"


def table(header, rows, align):
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def values(results, param):
    return sorted({int(dict(p)[param]) for (_, p) in results if param in dict(p)})


def get(results, method, param, value):
    return results.get((method, ((param, str(value)),)), (None, None))


PUBLISHED_A = {10000: "863 µs → 1.1 µs", 100000: "8.76 ms → 1.1 µs", 500000: "97.3 ms → 1.3 µs"}


def positioning(results):
    ns = values(results, "n")
    out = []
    out.append("#### (a) Continuation beyond the band: eager (seekToFirst, then seek) vs lazy (seek only)\n")
    rows = []
    for n in ns:
        e, ee = get(results, "beyondEager", "n", n)
        l, le = get(results, "beyondLazy", "n", n)
        rows.append([f"{n:,}", us(e, ee), us(l, le), ratio(e, l), PUBLISHED_A.get(n, "—")])
    out.append(table(["N tombstones", "eager µs", "lazy µs", "eager / lazy", "published (M5 Pro)"],
                     rows, "rrrrl"))
    out.append("\n#### (b) Both positionings cross the band (seek to the band start): eager vs lazy\n")
    rows = []
    for n in ns:
        e, ee = get(results, "crossEager", "n", n)
        l, le = get(results, "crossLazy", "n", n)
        rows.append([f"{n:,}", us(e, ee), us(l, le), ratio(e, l), "only ×2"])
    out.append(table(["N tombstones", "eager µs", "lazy µs", "eager / lazy", "published"], rows, "rrrrl"))
    out.append("\n#### (b) The same seek with Sediment's remedies, vs the lazy seek through the point band"
               " and vs a table that never had the band\n")
    variants = [
        ("crossLazy", "point tombstones, no bound (lazy seek)"),
        ("crossWatermarkBound", "lower bound at the first live key (watermark)"),
        ("crossBandInsideBound", "prefix bound containing the band"),
        ("crossRangeDelete", "band deleted by one deleteRange"),
        ("crossCompacted", "point band after compactRange"),
        ("crossTrackerHealed", "point band after the tracker's own compaction"),
        ("crossNoTombstones", "no tombstones (baseline)"),
    ]
    rows = []
    for n in ns:
        lazy, _ = get(results, "crossLazy", "n", n)
        base, _ = get(results, "crossNoTombstones", "n", n)
        for method, label in variants:
            s, err = get(results, method, "n", n)
            if s is None:
                continue
            rows.append([f"{n:,}", label, us(s, err), ratio(lazy, s), ratio(s, base)])
    out.append(table(["N tombstones", "variant", "µs", "lazy point band / variant",
                      "variant / no tombstones"], rows, "rlrrr"))
    return "\n".join(out)


def getrange(results):
    out = ["#### Count-one getRangeKVs on an existing key: fast path (one point get) vs the iterator paths\n"]
    rows = []
    for k in values(results, "keys"):
        f, fe = get(results, "fastPath", "keys", k)
        i, ie = get(results, "iteratorPath", "keys", k)
        o, oe = get(results, "ozonePath", "keys", k)
        rows.append([f"{k:,}", us(f, fe), "our iterator (new, seek, read, close)", us(i, ie), ratio(i, f),
                     "≥ ×1.3 (≈×1.5 expected)"])
        rows.append([f"{k:,}", us(f, fe), "Ozone path (get, then iterator seek, read)", us(o, oe), ratio(o, f),
                     "≈ ×2.5 (published ×3)"])
    out.append(table(["keys", "fast path µs", "other side", "other µs", "other / fast", "DESIGN §5 target"],
                     rows, "rrlrrl"))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("suite")
    ap.add_argument("json", nargs="+")
    ap.add_argument("--mode", default="?")
    ap.add_argument("--seconds", type=int)
    ap.add_argument("--cores", default="?")
    ap.add_argument("--cpu", default="?")
    ap.add_argument("--jmh", default="")
    ap.add_argument("--stat", choices=["median", "mean"], default="median")
    a = ap.parse_args()
    results = load(a.json, a.stat)
    if not results:
        sys.exit("bench_report: no results in " + " ".join(a.json))
    body = {"positioning": positioning, "getrange": getrange}[a.suite](results)
    took = f"{a.seconds // 60} min {a.seconds % 60} s" if a.seconds is not None else "?"
    print(f"### bench {a.suite} ({a.mode})\n")
    if a.stat == "median":
        figure = "figures are the median of all measurement iterations"
    else:
        figure = "figures are the mean ± standard deviation of all measurement iterations"
    figure += f" (widest max/min spread of one benchmark's iterations: ×{max(SPREADS):.2f})"
    print(f"{a.cores} cores, {a.cpu}; JMH {a.jmh.strip()}; average time per operation; "
          f"{figure}; wall clock {took} (build excluded).\n")
    print(body)


if __name__ == "__main__":
    main()
