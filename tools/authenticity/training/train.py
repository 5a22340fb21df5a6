"""Trains the authenticity classifier and exports it to ONNX.

Input: features.jsonl written by extract-features.ts (the engine's own TypeScript feature code).
Output: model/<name>.onnx, training/metrics.json (the v1 model's metrics are in git history at the
release of engine profile ep-2026.11-1). Deterministic: fixed seed, no subsampling,
single-threaded scikit-learn, fixed ONNX opsets; the same features file gives the same bytes.

    .data/authenticity-venv/bin/python tools/authenticity/training/train.py \
        --features .data/authenticity/corpus/train/features.jsonl
"""
import argparse
import hashlib
import json
import os
import sys

import numpy as np
import sklearn
import skl2onnx
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score
from skl2onnx import convert_sklearn
from skl2onnx.common.data_types import FloatTensorType

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261121
MODEL_NAME = "authenticity-gbt-v2"
PARAMS = dict(n_estimators=120, max_depth=3, learning_rate=0.12, subsample=1.0, min_samples_leaf=5)
FOLDS = 5


def load(path, spec):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    rows.sort(key=lambda r: r["file"])  # file order never depends on extraction timing
    x = np.array([r["features"] for r in rows], dtype=np.float32)
    if x.shape[1] != len(spec["features"]):
        sys.exit(f"feature count {x.shape[1]} != spec {len(spec['features'])}: re-extract features")
    y = np.array([spec["classes"].index(r["label"]) for r in rows])
    docs = np.array([r["doc"] for r in rows])
    return x, y, docs


def fit(x, y):
    model = GradientBoostingClassifier(random_state=SEED, **PARAMS)
    model.fit(x, y)
    return model


def detection_at_fpr(clean_risk, attack_risk, fpr):
    threshold = float(np.quantile(clean_risk, 1 - fpr, method="higher"))
    return float(np.mean(attack_risk > threshold)), threshold


def evaluate(x, y, docs, classes):
    """Out-of-fold risk (1 - P(clean)) with folds grouped by document."""
    risk = np.zeros(len(y))
    fold_of = docs % FOLDS
    for f in range(FOLDS):
        tr, te = fold_of != f, fold_of == f
        m = fit(x[tr], y[tr])
        risk[te] = 1 - m.predict_proba(x[te])[:, 0]
    clean = risk[y == 0]
    per_attack = {}
    for k, name in enumerate(classes):
        if k == 0:
            continue
        a = risk[y == k]
        det, thr = detection_at_fpr(clean, a, 0.05)
        auc = roc_auc_score(np.r_[np.zeros(len(clean)), np.ones(len(a))], np.r_[clean, a])
        per_attack[name] = {"n": int(len(a)), "detection_at_5pct_fpr": round(det, 4), "roc_auc": round(float(auc), 4)}
    allatt = risk[y != 0]
    det, thr5 = detection_at_fpr(clean, allatt, 0.05)
    _, thr1 = detection_at_fpr(clean, allatt, 0.01)
    auc = roc_auc_score((y != 0).astype(int), risk)
    return {
        "n_clean": int(len(clean)),
        "n_attack": int(len(allatt)),
        "all_attacks": {"detection_at_5pct_fpr": round(det, 4), "roc_auc": round(float(auc), 4)},
        "per_attack": per_attack,
        "risk_threshold_at_5pct_fpr": round(thr5, 4),
        "risk_threshold_at_1pct_fpr": round(thr1, 4),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--features", required=True)
    ap.add_argument("--out", default=os.path.join(HERE, "..", "..", "..", "engine", "authenticity", "model", MODEL_NAME + ".onnx"))
    ap.add_argument("--metrics", default=os.path.join(HERE, "metrics.json"))
    args = ap.parse_args()
    spec = json.load(open(os.path.join(HERE, "feature-spec.json")))
    x, y, docs = load(args.features, spec)
    cv = evaluate(x, y, docs, spec["classes"])
    model = fit(x, y)
    onx = convert_sklearn(
        model,
        initial_types=[("features", FloatTensorType([None, x.shape[1]]))],
        options={id(model): {"zipmap": False}},
        target_opset={"": 17, "ai.onnx.ml": 3},
    )
    # skl2onnx names the graph with a random UUID; a fixed name keeps the bytes reproducible.
    onx.graph.name = MODEL_NAME
    onx.doc_string = f"{MODEL_NAME}: project-trained tamper/recapture classifier; classes {spec['classes']}"
    data = onx.SerializeToString()
    with open(args.out, "wb") as fh:
        fh.write(data)
    sha = hashlib.sha256(data).hexdigest()
    # Thresholds of the rule-based forensic signals: what 1% of clean training captures exceed.
    clean = x[y == 0]
    names = spec["features"]
    rules = {
        name: {
            "clean_p99": round(float(np.quantile(clean[:, names.index(name)], 0.99)), 4),
            "attack_median": round(float(np.median(x[y != 0][:, names.index(name)])), 4),
        }
        for name in ["dq_primary_gap", "copy_move_score", "copy_move_votes"]
    }
    importances = sorted(zip(spec["features"], model.feature_importances_), key=lambda t: -t[1])[:12]
    metrics = {
        "model": {"name": MODEL_NAME, "file": os.path.basename(args.out), "sha256": sha, "bytes": len(data)},
        "seed": SEED,
        "params": PARAMS,
        "versions": {"scikit-learn": sklearn.__version__, "skl2onnx": skl2onnx.__version__, "numpy": np.__version__},
        "samples": {c: int((y == i).sum()) for i, c in enumerate(spec["classes"])},
        "documents": int(len(set(docs.tolist()))),
        "cross_validation": {"folds": FOLDS, "grouped_by": "document", **cv},
        "rule_calibration": rules,
        "top_features": [[n, round(float(v), 4)] for n, v in importances],
    }
    with open(args.metrics, "w") as fh:
        json.dump(metrics, fh, indent=2)
        fh.write("\n")
    print(json.dumps(metrics, indent=2))


if __name__ == "__main__":
    main()
