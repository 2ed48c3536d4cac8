#!/usr/bin/env python3
"""Turns a JMH JSON result of one Sediment suite into markdown tables.

Usage: bench_report.py <suite> <result.json>... [--mode M] [--stat median|mean] [--seconds S]
                       [--cores C] [--cpu X] [--jmh OPTS] [--data-log F --data-seconds S]

Every ratio divides two figures of the same run. Ratios read "how many times faster the second
side is": eager / lazy, other path / fast path, Kafka / Sediment, partitioned / full filter.

Figures measured outside JMH's timing (skipped entries, filter bytes per get, SST layout) come
from "#metric <method> <params> <name>=<value>" lines the benchmarks print into the JMH log
next to each JSON result (r<round>-<method>.log).
"""
import argparse
import json
import math
import os
import re
import statistics
import sys


SPREADS = []
UNITS = {"pointget": "ops/s", "replication": "ops/s"}
THREADS = {"pointget": "both threads", "replication": "all 64 client threads"}
METRICS = {}


def load_metrics(paths):
    """{(method, params-tuple): {name: [values, one per fork]}} from the JMH logs."""
    # JMH may print "Iteration N: " before what an iteration's fixture printed on the same line.
    line_re = re.compile(r"(?:^|: )#metric (\S+) (\S+) ([^=\s]+)=(.*)$")
    for path in paths:
        log = path[:-len(".json")] + ".log"
        if not os.path.exists(log):
            continue
        with open(log, errors="replace") as f:
            for line in f:
                m = line_re.search(line.strip())
                if not m:
                    continue
                method, ps, name, value = m.groups()
                params = () if ps == "-" else tuple(sorted(tuple(kv.split("=", 1)) for kv in ps.split(",")))
                METRICS.setdefault((method, params), {}).setdefault(name, []).append(value)


def metric(method, params, name):
    """The median of a numeric metric over the forks that printed it, or None."""
    values = METRICS.get((method, tuple(sorted(params))), {}).get(name)
    if not values:
        return None
    try:
        return statistics.median(float(v) for v in values)
    except ValueError:
        return values[0]


def load(paths, stat, unit="us/op"):
    """{(method, params-tuple): (figure, error)} in the suite's unit (microseconds per operation,
    or operations per second for throughput suites).

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
            if metric["scoreUnit"] != unit:
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
    return find(results, method, **{param: value})


def find(results, method, **params):
    """The one result of method whose parameters include params; (None, None) if none or several."""
    want = {k: str(v) for k, v in params.items()}
    hits = [v for (m, p), v in results.items()
            if m == method and all(dict(p).get(k) == x for k, x in want.items())]
    return hits[0] if len(hits) == 1 else (None, None)


def count(x):
    if x is None:
        return "n/a"
    if isinstance(x, str):
        return x
    return f"{x:,.0f}" if x >= 10 or x == int(x) else f"{x:.2f}"


def mib(x):
    if x is None or isinstance(x, str):
        return "—"
    if x >= 1 << 20:
        return f"{x / (1 << 20):.2f} MiB"
    return f"{x / 1024:.0f} KiB"


TRAILING_SIDES = {
    "trailing": [
        ("sedimentTrailing", "Sediment `table.iterator(P)` (bounded, lazy)"),
        ("kafkaPrefixScanTrailing", "Kafka Streams `prefixScan(P)`"),
        ("kafkaRangeTrailing", "Kafka Streams `range(P, successor(P))`"),
        ("sedimentNoTombstones", "Sediment, store without the tombstones (baseline)"),
        ("kafkaPrefixScanNoTombstones", "Kafka Streams `prefixScan(P)`, store without the tombstones"),
    ],
    "interior": [
        ("sedimentInterior", "Sediment `table.iterator(P)` (bounded, lazy)"),
        ("kafkaPrefixScanInterior", "Kafka Streams `prefixScan(P)`"),
        ("kafkaRangeInterior", "Kafka Streams `range(P, successor(P))`"),
        ("sedimentNoTombstones", "Sediment, store without the tombstones (baseline)"),
    ],
}


def trailing(results):
    out = []
    for n in values(results, "tombstones"):
        def fig(method):
            return get(results, method, "tombstones", n)

        def skipped(method):
            return metric(method, (("tombstones", str(n)),), "skipped")

        def ssts(method):
            return metric(method, (("tombstones", str(n)),), "sstFiles")

        for scenario, title in [
                ("trailing", f"100 live entries under P, then {n:,} point tombstones just past P"
                             " (the next prefix)"),
                ("interior", f"{n:,} point tombstones inside P, before its 100 live entries:"
                             " both sides walk them")]:
            out.append(f"#### {title}\n")
            sediment, _ = fig(TRAILING_SIDES[scenario][0][0])
            rows = []
            for method, label in TRAILING_SIDES[scenario]:
                s, err = fig(method)
                if s is None:
                    continue
                rows.append([label, us(s, err), count(skipped(method)), count(ssts(method)),
                             ratio(s, sediment)])
            out.append(table(["side (open, read 100 entries, close)", "µs/op",
                              "internal entries skipped per op", "SST files", "µs / Sediment µs"],
                             rows, "lrrrr"))
            out.append("")
        ks, _ = fig("kafkaPrefixScanTrailing")
        kr, _ = fig("kafkaRangeTrailing")
        st, _ = fig("sedimentTrailing")
        sb, _ = fig("sedimentNoTombstones")
        ki, _ = fig("kafkaPrefixScanInterior")
        si, _ = fig("sedimentInterior")
        def met(a, b, ok):
            return "—" if a is None or b is None or not b else ("met" if ok(a / b) else "NOT met")

        rows = [
            ["Kafka `prefixScan` / Sediment, trailing tombstones", ratio(ks, st), "≥ ×10",
             met(ks, st, lambda r: r >= 10)],
            ["Kafka `range` / Sediment, trailing tombstones", ratio(kr, st), "—", "—"],
            ["Sediment trailing / Sediment without tombstones", ratio(st, sb), "≤ ×2",
             met(st, sb, lambda r: r <= 2)],
            ["Kafka `prefixScan` / Sediment, tombstones inside P", ratio(ki, si), "≈ ×1 (both pay)", "—"],
        ]
        out.append("#### Ratios (same run) against the targets\n")
        out.append(table(["ratio", "measured", "target", ""], rows, "lrll"))
    return "\n".join(out)


PUBLISHED_POINTGET = {64: "1,746 → 176,144 (×101)", 1024: "−9 % (there everything fit)"}


def pointget(results):
    out = []
    keys = sorted({dict(p).get("keys") for (_, p) in results} - {None}, key=int)
    targets = sorted({dict(p).get("targetFileMiB") for (_, p) in results} - {None}, key=int)
    # metadataKiB (partition size) is a parameter since it became one; older results lack it.
    partitions = sorted({dict(p).get("metadataKiB") for (_, p) in results},
                        key=lambda v: -1 if v is None else int(v))
    for k, t, mk in [(k, t, mk) for k in keys for t in targets for mk in partitions]:
        caches = sorted({int(dict(p)["cacheMiB"]) for (_, p) in results
                         if dict(p).get("keys") == k and dict(p).get("targetFileMiB") == t
                         and dict(p).get("metadataKiB") == mk})
        if not caches:
            continue

        def params(c):
            base = [("cacheMiB", str(c)), ("keys", k), ("targetFileMiB", t)]
            if mk is not None:
                base.append(("metadataKiB", mk))
            return tuple(sorted(base))

        def fig(method, c):
            return results.get((method, params(c)), (None, None))

        def m(method, c, name):
            return metric(method, params(c), name)

        c0 = caches[0] if caches else None
        layout = []
        for method, label in [("fullFilter", "full filter + binary-search index"),
                              ("partitioned", "partitioned index and filters, top level pinned")]:
            layout.append(f"{label}: {count(m(method, c0, 'sstFiles'))} SSTs, "
                          f"{mib(m(method, c0, 'sstBytes'))}, files per level "
                          f"{m(method, c0, 'filesPerLevel') or '?'}, largest filter "
                          f"{mib(m(method, c0, 'maxFilterBytes'))}")
        part = f", {mk} KiB index and filter partitions" if mk is not None else ""
        out.append(f"#### {int(k):,} keys (ledgerId, entryId), {t} MiB target SSTs{part}; random gets"
                   " of existing keys from 2 threads\n")
        out.append("Layouts: " + "; ".join(layout) + ".\n")
        rows = []
        verdict = {"yes": [], "no": []}
        for c in caches:
            f, fe = fig("fullFilter", c)
            p, pe = fig("partitioned", c)
            q, qe = fig("partitionedPinned", c)
            d, de = fig("sedimentDefault", c)
            pinned_by_auto = m("sedimentDefault", c, "autoPinned")
            shard = m("fullFilter", c, "shardBytes")
            shards = m("fullFilter", c, "shards")
            big = m("fullFilter", c, "maxFilterBytes")
            exceeds = "yes" if isinstance(big, float) and isinstance(shard, float) and big > shard else "no"
            if f and p:
                verdict[exceeds].append((c, "partitioned", p / f))
            if f and q:
                verdict[exceeds].append((c, "partitions pinned", q / f))
            if f and d:
                verdict[exceeds].append((c, "Sediment's default (AUTO)", d / f))
            auto = "—" if pinned_by_auto is None else ("pinned" if pinned_by_auto else "not pinned")
            rows.append([f"{c:,} MiB", f"{count(shards)} × {mib(shard)}", exceeds,
                         count(f), count(p), ratio(p, f), count(q), ratio(q, f),
                         count(d), ratio(d, f), auto,
                         count(m("fullFilter", c, "BLOCK_CACHE_FILTER_BYTES_INSERT/get")),
                         count(m("partitioned", c, "BLOCK_CACHE_FILTER_BYTES_INSERT/get")),
                         count(m("fullFilter", c, "BLOCK_CACHE_FILTER_MISS/get")),
                         count(m("partitioned", c, "BLOCK_CACHE_FILTER_MISS/get")),
                         PUBLISHED_POINTGET.get(c, "—")])
        out.append(table(["block cache", "shards", "full filter > shard", "full filter gets/s",
                          "partitioned gets/s", "partitioned / full",
                          "partitions pinned gets/s", "pinned / full",
                          "Sediment default gets/s", "default / full", "AUTO decided",
                          "filter bytes read per get (full)", "(partitioned)",
                          "filter misses per get (full)", "(partitioned)",
                          "published, 50M keys"], rows, "lrlrrrrrrrlrrrrl"))
        floor = []
        for c in caches:
            f, _ = fig("fullFilter", c)
            p, _ = fig("partitioned", c)
            rf, _ = fig("rawFullFilter", c)
            rp, _ = fig("rawPartitioned", c)
            if rf or rp:
                floor.append([f"{c:,} MiB", count(rf), count(rp), ratio(rp, rf), ratio(p, f),
                              ratio(f, rf), ratio(p, rp)])
        if floor:
            out.append("\nThe floor: the same gets through plain rocksdbjni on the same open stores"
                       " (`RawRocks`), in the same run.\n")
            out.append(table(["block cache", "plain get, full filter gets/s",
                              "plain get, partitioned gets/s", "plain partitioned / full",
                              "Sediment partitioned / full", "Sediment / plain (full filter)",
                              "Sediment / plain (partitioned)"], floor, "lrrrrrr"))
        lines = []
        for key, label, target, ok in [
                ("yes", "where a full filter block exceeds a shard", "≥ ×20", lambda r: r >= 20),
                ("no", "where it fits a shard", "≥ ×0.85", lambda r: r >= 0.85)]:
            for c, side, r in verdict[key]:
                lines.append(f"- {c:,} MiB, {label}: {side} / full ×{r:.2f}, target {target}: "
                             f"{'met' if ok(r) else 'NOT met'}")
        if lines:
            out.append("\n" + "\n".join(lines))
        out.append("\nSides: partitioned = the issue's layout (top level pinned, partitions cached"
                   " like data blocks, `PartitionPinning.NONE`); partitions pinned = `ALL`;"
                   " Sediment default = `AUTO` (pins when the index and filters on disk take at"
                   " most an eighth of the cache). All three open the same files.\n")
        out.append("\nTargets: partitioned / full ≥ ×20 where a full filter block exceeds a shard;"
                   " ≥ ×0.85 (no more than 15 % slower) where everything fits. Filter bytes read"
                   " per get: `BLOCK_CACHE_FILTER_BYTES_INSERT` (what the cache took in after"
                   " reading filter blocks from the files) over `NUMBER_KEYS_READ`, measurement"
                   " iterations only.\n")
    return "\n".join(out)


PUBLISHED_A = {10000: "863 µs → 1.1 µs", 100000: "8.76 ms → 1.1 µs", 500000: "97.3 ms → 1.3 µs"}


def positioning(results):
    ns = values(results, "n")
    out = []
    out.append("#### (a) Continuation beyond the band: eager (seekToFirst, then seek) vs lazy (seek only)\n")
    rows = []
    for n in ns:
        e, ee = get(results, "beyondEager", "n", n)
        l, le = get(results, "beyondLazy", "n", n)
        r, re_ = get(results, "beyondRaw", "n", n)
        rows.append([f"{n:,}", us(e, ee), us(l, le), ratio(e, l), us(r, re_), ratio(l, r),
                     PUBLISHED_A.get(n, "—")])
    out.append(table(["N tombstones", "eager µs", "lazy µs", "eager / lazy",
                      "plain rocksdbjni seek µs (floor)", "lazy / plain", "published (M5 Pro)"],
                     rows, "rrrrrrl"))
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
        ("crossWatermarkBoundRaw", "the same lower bound, plain rocksdbjni (floor of the watermark)"),
        ("crossBandInsideBound", "prefix bound containing the band"),
        ("crossRangeDelete", "band deleted by one deleteRange"),
        ("crossCompacted", "point band after compactRange"),
        ("crossTrackerHealed", "point band after the tracker's own compaction"),
        ("crossPeriodicScanHealed", "point band healed by the default policy, scanned once a second"),
        ("crossSingleScanHealed", "point band healed by the default policy, scanned once"),
        ("crossNoTombstones", "no tombstones (baseline)"),
        ("crossNoTombstonesRaw", "no tombstones, plain rocksdbjni (floor)"),
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
    healing = [
        ("crossPeriodicScanHealed", "band scanned once a second (an unrelated read took the first"
         " sample just before)", 5000),
        ("crossSingleScanHealed", "one scan through the band (table quiet for 1.1 s before it)", 2000),
    ]
    rows = []
    for n in ns:
        for method, label, target in healing:
            ms = metric(method, [("n", str(n))], "healedMillis")
            if ms is None:
                continue
            healed = metric(method, [("n", str(n))], "healed")
            scans = metric(method, [("n", str(n))], "scans")
            compactions = metric(method, [("n", str(n))], "compactions")
            ok = healed in ("true", 1.0) and ms <= target
            rows.append([f"{n:,}", label, count(scans), f"{ms:,.0f}", count(compactions),
                         f"≤ {target:,} ms", "met" if ok else "not met"])
    if rows:
        out.append("\n#### Healing with the default tombstone policy and no other traffic: time from"
                   " the first scan to the band compacted\n")
        out.append(table(["N tombstones", "scenario", "scans", "ms to compacted", "compactions",
                          "target", ""], rows, "rlrrrll"))
    return "\n".join(out)


def accounting(results):
    out = ["#### A bounded iterator, one seek and a page of entries, no tombstones:"
           " accounting off, every iterator counting, default sampling\n"]
    rows = []
    cpu_rows = []
    for page in values(results, "page"):
        cpu = {m: metric(m, [("page", str(page))], "cpuNanosPerOp") for m in ("off", "every", "sampled")}
        if all(isinstance(v, float) for v in cpu.values()):
            cpu_rows.append([f"{page:,}", us(cpu["off"] / 1000), us(cpu["every"] / 1000),
                             ratio(cpu["every"], cpu["off"]), us(cpu["sampled"] / 1000),
                             ratio(cpu["sampled"], cpu["off"]), "≤ ×1.05" if page == 100 else "—"])
        off, oe = get(results, "off", "page", page)
        every, ee = get(results, "every", "page", page)
        sampled, se = get(results, "sampled", "page", page)
        note = "the trailing suite's page" if page == 100 else ""
        rows.append([f"{page:,}" + (f" ({note})" if note else ""), us(off, oe), us(every, ee),
                     ratio(every, off), us(sampled, se), ratio(sampled, off),
                     "≤ ×1.05" if page == 100 else "—"])
    out.append(table(["entries per page", "off µs", "every iterator µs", "every / off",
                      "default sampling µs", "default / off", "target"], rows, "lrrrrrl"))
    if cpu_rows:
        out.append("\n#### The same operations in CPU time of the benchmark thread (median of the"
                   " measurement iterations; waiting for a core excluded)\n")
        out.append(table(["entries per page", "off CPU µs", "every iterator CPU µs", "every / off",
                          "default sampling CPU µs", "default / off", "target"], cpu_rows, "lrrrrrl"))
    return "\n".join(out)


def getrange(results):
    out = ["#### Count-one getRangeKVs on an existing key: fast path (one point get) vs the iterator paths\n"]
    profiles = sorted({dict(p).get("filters", "partitioned") for (_, p) in results})
    combos = [(f, k) for f in profiles for k in values(results, "keys")]

    def fig(method, f, k):
        return find(results, method, keys=k, filters=f)

    rows = []
    for f, k in combos:
        fa, fae = fig("fastPath", f, k)
        i, ie = fig("iteratorPath", f, k)
        o, oe = fig("ozonePath", f, k)
        if fa is None:
            continue
        rows.append([f, f"{k:,}", us(fa, fae), "our iterator (new, seek, read, close)", us(i, ie), ratio(i, fa),
                     "≥ ×1.3 (≈×1.5 expected)"])
        rows.append([f, f"{k:,}", us(fa, fae), "Ozone path (get, then iterator seek, read)", us(o, oe),
                     ratio(o, fa), "≈ ×2.5 (published ×3)"])
    out.append(table(["profile", "keys", "fast path µs", "other side", "other µs", "other / fast",
                      "DESIGN §5 target"], rows, "lrrlrrl"))
    rows = []
    for f, k in combos:
        g, _ = fig("rawGet", f, k)
        ri, _ = fig("rawIteratorPath", f, k)
        ro, _ = fig("rawOzonePath", f, k)
        fa, _ = fig("fastPath", f, k)
        i, _ = fig("iteratorPath", f, k)
        if g is None:
            continue
        rows.append([f, f"{k:,}", us(g), us(ri), ratio(ri, g), us(ro), ratio(ro, g), ratio(fa, g), ratio(i, ri)])
    if rows:
        out.append("\n#### The floor: the same calls through plain rocksdbjni on the same store\n")
        out.append(table(["profile", "keys", "get µs", "iterator µs", "iterator / get", "get + iterator µs",
                          "(get + iterator) / get", "fast path / plain get", "our iterator / plain iterator"],
                         rows, "lrrrrrrrr"))
    return "\n".join(out)


def replication(results):
    out = ["#### Durable key creation (OpenKey + CommitKey of a new key) at 64 clients, gRPC on"
           " loopback; all replicas and the clients share this machine\n"]
    rows = []
    verdicts = []
    for h in values(results, "handlerThreads"):
        single, _ = find(results, "createKey", setup="single", handlerThreads=h)
        floor, _ = find(results, "createKey", setup="ratisFloor", handlerThreads=h)
        cpu = {}
        for label, setup, handlers in [
                ("single: one server, SyncPolicy.DURABLE (group-committed WAL fsync)", "single",
                 str(h)),
                ("replicated3: three replicas of a Ratis group, each Raft log fsynced, stores "
                 "without a WAL (REPLAYED_FROM_LOG); clients send to the leader", "replicated3",
                 str(h)),
                ("ratisFloor: three bare Ratis servers, replicas' Raft properties, no-op state "
                 "machine; the 2 entries of a key appended in-process on the leader (no gRPC, no "
                 "store)", "ratisFloor", "—")]:
            s, e = find(results, "createKey", setup=setup, handlerThreads=h)
            if s is None:
                continue
            params = (("handlerThreads", str(h)), ("setup", setup))
            term = metric("createKey", params, "leaderTerm")
            cpu[setup] = metric("createKey", params, "cpuMicrosPerKey")
            rows.append([label, handlers, us(s, e), ratio(s, single), ratio(s, floor),
                         "—" if cpu[setup] is None else count(cpu[setup]),
                         "—" if term is None else count(term)])
            if setup == "replicated3" and single:
                r = s / single
                verdicts.append(f"- {h} handler threads: replicated3 / single ×{r:.2f}, target"
                                f" ≥ ×0.5 (issue 17): {'met' if r >= 0.5 else 'NOT met'}")
                if floor:
                    verdicts.append(f"  - replicated3 keeps ×{s / floor:.2f} of the floor"
                                    " (replicated3 / ratisFloor)")
        if floor and single:
            f = floor / single
            reach = ("within reach of the floor" if f >= 0.5 else
                     "out of reach on this machine: even the Raft log alone is below ×0.5")
            verdicts.append(f"- floor: ratisFloor / single ×{f:.2f} (single at {h} handler"
                            f" threads); target ×0.5 {reach}")
        if cpu.get("single") and cpu.get("ratisFloor"):
            # replicated3 does at least the Raft log's work (ratisFloor) and the single server's
            # (gRPC front end, one apply): with every core busy, their CPU times add up.
            both = cpu["single"] + cpu["ratisFloor"]
            bound = os.cpu_count() * 1e6 / both
            verdicts.append(f"- CPU bound: single + ratisFloor = {both:,.0f} CPU µs a key; "
                            f"{os.cpu_count()} cores busy allow at most {bound:,.0f} keys/s"
                            + (f" = ×{bound / single:.2f} of single" if single else ""))
    out.append(table(["setup", "handler threads per server", "keys created/s", "/ single",
                      "/ ratisFloor", "CPU µs a key (whole JVM)",
                      "leader's term at the end (1: no election)"], rows, "lrrrrrr"))
    if verdicts:
        out.append("\n" + "\n".join(verdicts))
    return "\n".join(out)


def security(results):
    out = ["#### One call from one client over gRPC on loopback: plaintext and anonymous, TLS alone"
           " (the floor of secured), and TLS + bearer token + ACL check (a caller granted READ and"
           " LIST by entries, neither administrator nor owner)\n"]
    rows = []
    verdicts = []
    for method, label, target in [
            ("lookupKey", "LookupKey (a random one of 2,000 keys)", 0.25),
            ("listPage", "ListObjectsV2, a page of 1,000 keys", 0.10)]:
        plain, pe = find(results, method, setup="plaintext")
        tls, te = find(results, method, setup="tls")
        secured, se = find(results, method, setup="secured")
        if plain is None or secured is None:
            continue
        cost = secured / plain - 1
        floor = None if tls is None else tls / plain - 1
        rows.append([label, us(plain, pe), us(tls, te), us(secured, se),
                     f"{cost * 100:+.1f} %", "—" if floor is None else f"{floor * 100:+.1f} %",
                     "—" if tls is None else f"{(secured / tls - 1) * 100:+.1f} %",
                     f"≤ +{target * 100:.0f} %"])
        verdict = f"- {label}: {cost * 100:+.1f} % (target ≤ +{target * 100:.0f} %):" \
                  f" {'met' if cost <= target else 'NOT met'}"
        if floor is not None and cost > target:
            verdict += (f"; TLS alone costs {floor * 100:+.1f} %"
                        + (" (the floor puts the target out of reach here)" if floor > target
                           else "") + f", authentication + authorization on top of it"
                        f" {(secured / tls - 1) * 100:+.1f} %")
        verdicts.append(verdict)
    out.append(table(["call", "plaintext, anonymous (µs)", "TLS alone (µs)",
                      "TLS + token + ACL (µs)", "cost vs plaintext", "TLS alone vs plaintext",
                      "token + ACL vs TLS alone", "target (issue 18)"], rows, "lrrrrrrl"))
    check = [find(results, m, setup="secured")
             for m in ("aclCheck", "aclCheckFromTables", "aclDecision")]
    if check[0][0] is not None:
        out.append("\n#### The ACL check alone (READ on a key its bucket grants)\n")
        out.append(table(["check", "µs"], [
            ["NativeAccessControl.check: volume and bucket records from the parsed-row cache",
             us(*check[0])],
            ["the same with the two records read from RocksDB (as before the cache)",
             us(*check[1])],
            ["AclDecision alone over grants built in advance", us(*check[2])]], "lr"))
        verdict = (f"- ACL check with the bucket's ACLs cached: {check[0][0]:.3f} µs (target"
                   f" ≤ 1 µs): {'met' if check[0][0] <= 1 else 'NOT met'}")
        if check[1][0] is not None:
            verdict += (f"; reading the records from RocksDB instead: {check[1][0]:.2f} µs"
                        f" (×{check[1][0] / check[0][0]:.1f})")
        verdicts.append(verdict)
    if verdicts:
        out.append("\n" + "\n".join(verdicts))
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
    ap.add_argument("--data-log")
    ap.add_argument("--data-seconds", type=int)
    a = ap.parse_args()
    unit = UNITS.get(a.suite, "us/op")
    results = load(a.json, a.stat, unit)
    if not results:
        sys.exit("bench_report: no results in " + " ".join(a.json))
    load_metrics(a.json)
    body = {"positioning": positioning, "getrange": getrange, "trailing": trailing,
            "accounting": accounting, "pointget": pointget,
            "replication": replication, "security": security}[a.suite](results)
    took = f"{a.seconds // 60} min {a.seconds % 60} s" if a.seconds is not None else "?"
    print(f"### bench {a.suite} ({a.mode})\n")
    if a.stat == "median":
        figure = "figures are the median of all measurement iterations"
    else:
        figure = "figures are the mean ± standard deviation of all measurement iterations"
    figure += f" (widest max/min spread of one benchmark's iterations: ×{max(SPREADS):.2f})"
    kind = f"operations per second, {THREADS.get(a.suite)} together" if unit == "ops/s" \
        else "average time per operation"
    data = ""
    if a.data_seconds is not None:
        data = f"; data built or found in {a.data_seconds // 60} min {a.data_seconds % 60} s first"
    print(f"{a.cores} cores, {a.cpu}; JMH {a.jmh.strip()}; {kind}; "
          f"{figure}; wall clock {took} (build excluded{data}).\n")
    if a.data_log and os.path.exists(a.data_log):
        with open(a.data_log, errors="replace") as f:
            lines = [l.rstrip() for l in f if l.strip() and not l.startswith("SLF4J")]
        print("Data:\n\n```\n" + "\n".join(lines) + "\n```\n")
    print(body)


if __name__ == "__main__":
    main()
