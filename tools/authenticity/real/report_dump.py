"""Re-reads `npm run bench:authenticity -- --dump results.jsonl` and prints the real-image report the
bench prints (bench/authenticity-real.ts reportReal: genuine flagged by kind at the settings' own
status, detection at the score 5 % of the part's genuine images exceed, ROC AUC), per settings
version and round: round 1 (recipe's editors), round 2 (real editors' headers), round 3 (splices
with an unblurred donor at other qualities). `--exclude-repo-sources` drops the genuine rows of
sources added later (the 43 Tech4Tracing/CartridgeOCR phone photos), for a like-for-like comparison
with figures measured before they joined.

    python3 tools/authenticity/real/report_dump.py results.jsonl [--exclude-repo-sources]
"""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def auc(neg, pos):
    if not neg or not pos:
        return float("nan")
    return sum((p > n) + 0.5 * (p == n) for p in pos for n in neg) / (len(neg) * len(pos))


def threshold(neg):
    s = sorted(neg)
    return s[min(len(s) - 1, max(0, math.ceil(0.95 * len(s)) - 1))]


def report(rows):
    gen = [r for r in rows if r["label"] == "clean"]
    att = [r for r in rows if r["label"] != "clean"]
    thr = threshold([r["score"] for r in gen])
    out = {"threshold": round(thr, 3), "genuine": {}, "attacks": {}}
    for kind in ("camera", "scanner", "document", "browser"):
        xs = [r for r in gen if r["kind"] == kind]
        if xs:
            out["genuine"][kind] = {"n": len(xs), "review_or_failed": round(sum(r["status"] != "passed" for r in xs) / len(xs), 3),
                                    "failed": round(sum(r["status"] == "failed" for r in xs) / len(xs), 3)}
    neg = [r["score"] for r in gen]
    for label in sorted({r["label"] for r in att}):
        pos = [r["score"] for r in att if r["label"] == label]
        out["attacks"][label] = {"n": len(pos), "det": round(sum(p > thr for p in pos) / len(pos), 3), "auc": round(auc(neg, pos), 3)}
    pos = [r["score"] for r in att]
    out["all"] = {"n": len(pos), "det": round(sum(p > thr for p in pos) / max(1, len(pos)), 3), "auc": round(auc(neg, pos), 3)}
    ms = sorted(r["ms"] for r in rows)
    out["latency_ms"] = {"p50": ms[len(ms) // 2], "p95": ms[int(len(ms) * 0.95)], "n": len(ms)}
    return out


def main():
    args = sys.argv[1:]
    exclude = "--exclude-repo-sources" in args
    args = [a for a in args if not a.startswith("--")]
    later = set()
    if exclude:
        later = {s["id"] for s in json.load(open(os.path.join(HERE, "sources.json"))) if s["repo"] == "Tech4Tracing/CartridgeOCR"}
    rows = [json.loads(l) for f in args for l in open(f) if l.strip()]
    rows = [r for r in rows if r["source"] not in later]
    for part in sorted({r["part"] for r in rows}):
        for v in sorted({r["settings"] for r in rows if r["part"] == part}):
            mine = [r for r in rows if r["part"] == part and r["settings"] == v]
            rounds = {
                "round1": [r for r in mine if r["label"] == "clean" or (not r["save"] and "__r3__" not in r["file"])],
                "round2_real_editors": [r for r in mine if r["label"] == "clean" or (r["save"] and "__r3__" not in r["file"])],
                "round3_splices": [r for r in mine if r["label"] == "clean" or "__r3__" in r["file"]],
            }
            for name, rs in rounds.items():
                print(json.dumps({"part": part, "settings": v, "round": name, **report(rs)}))


if __name__ == "__main__":
    main()
