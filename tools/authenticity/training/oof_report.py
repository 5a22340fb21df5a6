"""Summarises an out-of-fold risk dump (OOF_OUT=… of train_v3.py and its successors) on the TUNING
split: detection of each real attack at the risk 5 % of the real genuine tuning images exceed,
round 1 (recipe's presets), round 2 (real editors' headers) and round 3 (splices, unblurred donor
at other qualities) apart, AUC, and the genuine
images flagged at that point by kind. Model only (no rules), as the training metrics are.

    python3 tools/authenticity/training/oof_report.py [--rules rules.jsonl] oof-a.jsonl [oof-b.jsonl …]

With `--rules` (tools/authenticity/real/dump-rules.ts: settings v6's metadata rules per tuning
file), a file with a strong rule finding scores 1 (the engine's status floor puts it above the
model's thresholds): an approximation of the engine on the tuning rows, reported as `engine_approx`.
"""
import json
import sys


def auc(neg, pos):
    if not neg or not pos:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(neg) * len(pos))


def report(path, rules=None):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    real = [r for r in rows if r["real"]]
    if rules is not None:
        for r in real:
            if any(x.endswith(":strong") for x in rules.get(r["file"].split("/", 1)[-1], [])):
                r["risk"] = 1.0
    neg = sorted(r["risk"] for r in real if r["label"] == "clean")
    thr = neg[min(len(neg) - 1, int(-(-0.95 * len(neg) // 1)) - 1)]
    out = {"n_genuine": len(neg), "threshold": round(thr, 4), "attacks": {}, "genuine_flagged": {}}
    for label in sorted({r["label"] for r in real} - {"clean"}):
        for rnd, test in (("r1", lambda f: "__r2__" not in f and "__r3__" not in f), ("r2", lambda f: "__r2__" in f), ("r3", lambda f: "__r3__" in f)):
            pos = [r["risk"] for r in real if r["label"] == label and test(r["file"])]
            if pos:
                out["attacks"][f"{label}/{rnd}"] = {"n": len(pos), "det": round(sum(p > thr for p in pos) / len(pos), 3), "auc": round(auc(neg, pos), 3)}
    for kind in sorted({r["kind"] for r in real if r["label"] == "clean"}):
        xs = [r["risk"] for r in real if r["label"] == "clean" and r["kind"] == kind]
        out["genuine_flagged"][kind] = {"n": len(xs), "at_5pct": round(sum(x > thr for x in xs) / len(xs), 3)}
    return out


if __name__ == "__main__":
    args = sys.argv[1:]
    rules = None
    if "--rules" in args:
        i = args.index("--rules")
        rules = {}
        for l in open(args[i + 1]):
            if l.strip():
                r = json.loads(l)
                rules[r["file"]] = r["rules"]
        del args[i:i + 2]
    for p in args:
        print(p, json.dumps(report(p)))
        if rules is not None:
            print(p, "engine_approx", json.dumps(report(p, rules)))
