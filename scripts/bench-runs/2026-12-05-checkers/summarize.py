import json, re, sys, os
d = sys.argv[1]
def tv(log):
    t = open(os.path.join(d, log)).read()
    g = lambda pat: re.search(pat, t).group(1)
    el = g(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)")
    parts = [float(x) for x in el.split(":")]
    wall = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    cpu = float(g(r"User time \(seconds\): (\S+)")) + float(g(r"System time \(seconds\): (\S+)"))
    rss = int(g(r"Maximum resident set size \(kbytes\): (\d+)")) * 1024
    return wall, cpu, rss
rows = []
for name in ["build"] + [f"verify-{r}" for r in ["sets-1", "positions-1", "sets-2", "sets-3"]]:
    try:
        j = json.load(open(os.path.join(d, name + ".json")))
    except Exception as e:
        print(name, "missing", e); continue
    wall, cpu, rss = tv(name + ".log")
    pos = j["positions"] if "positions" in j else sum(f["positions"] for b in j["builds"] for f in b["files"])
    extra = "" if name == "build" else f", ok {j['ok']}, inconsistent {j['inconsistent']}, checkers {sorted(set(f['checker'] for f in j['per_file']))}"
    print(f"{name:20} {pos:,} positions: wall {wall:.1f} s, CPU {cpu:.1f} s ({100*cpu/wall:.0f}%), {pos/cpu:.3e} positions per CPU-second, {pos/wall:.3e} per wall second, peak RSS {rss/2**30:.2f} GiB{extra}")
    if name != "build":
        by = {}
        for f in j["per_file"]:
            k = os.path.basename(f["file"])
            by[k] = f["positions"] / f["seconds"]
        rows.append((name, by))
if rows:
    print("per file, positions per wall second (2 threads):")
    files = list(rows[0][1])
    print("file      " + " ".join(f"{n:>14}" for n, _ in rows))
    for f in files:
        print(f"{f:10}" + " ".join(f"{r.get(f, 0):14.3e}" for _, r in rows))
