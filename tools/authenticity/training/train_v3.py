"""Trains authenticity model v3 (settings v5) and writes it as JSON trees evaluated in TypeScript.

Inputs (both written by the engine's own TypeScript feature code, feature set v3):
  --real       .data/authenticity/real/set/features.jsonl  (real genuine images and attacks on
               real images; only rows with heldout == false are read: the held-out split never
               reaches training or threshold choice)
  --synthetic  .data/authenticity/corpus/train/features.jsonl (generated documents: one part)
Output: model/authenticity-gbt-v3.json, training/metrics-v3.json.

Negatives are REAL genuine images (camera, scanner, document, browser canvas) and the generated
clean captures; positives are attacks on real images and the generated attacks. Rows are weighted
so that real and generated data count equally per class and clean counts as much as all attacks.
Thresholds: out-of-fold risk (folds grouped by source image, so an image and its attacks never
sit on both sides) that 5 % (review) and 1 % (strong) of the REAL genuine training images exceed.
Deterministic: sorted rows, fixed seed, single thread.

    .data/authenticity-venv/bin/python tools/authenticity/training/train_v3.py \
        --real .data/authenticity/real/set/features.jsonl \
        --synthetic .data/authenticity/corpus/train/features.jsonl
"""
import argparse
import hashlib
import json
import os
import zlib

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261124
MODEL_NAME = "authenticity-gbt-v3"
PARAMS = dict(n_estimators=160, max_depth=3, learning_rate=0.08, subsample=0.8, min_samples_leaf=6, max_features=0.5)
FOLDS = 5
WIDTH = 79
files = []
REAL_LABEL = {"clean": "clean", "splice": "splice_portrait", "edit_text": "edit_text", "editor_resave": "editor_resave",
              "screen_recapture": "screen_recapture", "print_recapture": "print_recapture"}


def load(args, spec):
    # Only sources still in the manifest (a stricter genuine rule may drop some).
    sources = {s["id"] for s in json.load(open(os.path.join(HERE, "..", "real", "sources.json")))}
    rows = []
    for l in open(args.real):
        if not l.strip():
            continue
        try:
            r = json.loads(l)
        except ValueError:
            continue
        if r["heldout"] or r["source"] not in sources:
            continue
        rows.append({"file": "real/" + r["file"], "label": REAL_LABEL[r["label"]], "group": "real:" + r["source"],
                     "real": 1, "kind": r["kind"], "features": r["features"]})
    if args.synthetic and os.path.exists(args.synthetic):
        for l in open(args.synthetic):
            if not l.strip():
                continue
            r = json.loads(l)
            rows.append({"file": "synthetic/" + r["file"], "label": r["label"], "group": "doc:%d" % r["doc"],
                         "real": 0, "kind": "synthetic", "features": r["features"]})
    rows.sort(key=lambda r: r["file"])
    # Feature sets are prefixes: a model reads the first WIDTH values (v3 = 79; later sets append),
    # so rows extracted with a longer set (or patched to it) give the same inputs.
    assert all(WIDTH <= len(r["features"]) <= len(spec["features"]) for r in rows), "row shorter than the model's feature set: re-extract"
    x = np.array([r["features"][:WIDTH] for r in rows], dtype=np.float64)
    y = np.array([spec["classes"].index(r["label"]) for r in rows])
    fold = np.array([zlib.crc32(r["group"].encode()) % FOLDS for r in rows])
    real = np.array([r["real"] for r in rows])
    kind = np.array([r["kind"] for r in rows])
    global files
    files = [r["file"] for r in rows]
    return x, y, fold, real, kind


def weights(y, real):
    w = np.ones(len(y))
    for k in np.unique(y):
        for s in (0, 1):
            m = (y == k) & (real == s)
            if m.sum():
                w[m] = 1.0 / m.sum()
    # clean (class 0) as heavy as all attack classes together
    w[y == 0] *= (len(np.unique(y)) - 1)
    return w * len(y) / w.sum()


def fit(x, y, w):
    m = GradientBoostingClassifier(random_state=SEED, **PARAMS)
    m.fit(x, y, sample_weight=w)
    return m


def export(m):
    trees = []
    for stage in m.estimators_:
        per_class = []
        for est in stage:
            t = est.tree_
            per_class.append({
                "feature": t.feature.tolist(), "threshold": [float(v) for v in t.threshold],
                "left": t.children_left.tolist(), "right": t.children_right.tolist(),
                "value": [float(v) for v in t.value[:, 0, 0]],
            })
        trees.append(per_class)
    init = m._raw_predict_init(np.zeros((1, m.n_features_in_)))[0].tolist()
    return {"format": "sklearn-gbt-softmax-v1", "name": MODEL_NAME, "learning_rate": m.learning_rate, "init": init,
            "n_features": int(m.n_features_in_), "classes": [int(c) for c in m.classes_], "stages": trees}


def predict_json(model, x):
    raw = np.tile(np.array(model["init"]), (len(x), 1))
    for stage in model["stages"]:
        for k, t in enumerate(stage):
            out = np.zeros(len(x))
            for i, row in enumerate(x):
                n = 0
                while t["left"][n] != -1:
                    n = t["left"][n] if row[t["feature"][n]] <= t["threshold"][n] else t["right"][n]
                out[i] = t["value"][n]
            raw[:, k] += model["learning_rate"] * out
    e = np.exp(raw - raw.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--real", required=True)
    ap.add_argument("--synthetic")
    ap.add_argument("--out", default=os.path.join(HERE, "..", "model", MODEL_NAME + ".json"))
    ap.add_argument("--metrics", default=os.path.join(HERE, "metrics-v3.json"))
    args = ap.parse_args()
    spec = json.load(open(os.path.join(HERE, "feature-spec.json")))
    x, y, fold, real, kind = load(args, spec)
    x = x.astype(np.float32).astype(np.float64)  # the engine evaluates float32 features
    w = weights(y, real)
    risk = np.zeros(len(y))
    for f in range(FOLDS):
        tr, te = fold != f, fold == f
        m = fit(x[tr], y[tr], w[tr])
        risk[te] = 1 - m.predict_proba(x[te])[:, 0]
    if os.environ.get("OOF_OUT"):
        # Out-of-fold risk per tuning row (analysis only; the held-out split is never here).
        with open(os.environ["OOF_OUT"], "w") as fh:
            for i in range(len(y)):
                fh.write(json.dumps({"file": files[i], "label": spec["classes"][y[i]], "real": int(real[i]), "kind": str(kind[i]), "risk": float(risk[i])}) + "\n")
    real_clean = risk[(y == 0) & (real == 1)]
    thr_review = float(np.quantile(real_clean, 0.95, method="higher"))
    thr_strong = float(np.quantile(real_clean, 0.99, method="higher"))
    cv = {"n": int(len(y)), "n_real": int(real.sum()), "threshold_review_5pct_real_clean": round(thr_review, 4),
          "threshold_strong_1pct_real_clean": round(thr_strong, 4), "per_class": {}, "clean_fpr_by_kind": {}}
    for k, name in enumerate(spec["classes"]):
        if k == 0:
            continue
        for s, tag in ((1, "real"), (0, "synthetic")):
            a = risk[(y == k) & (real == s)]
            if not len(a):
                continue
            neg = risk[(y == 0) & (real == s)]
            auc = roc_auc_score(np.r_[np.zeros(len(neg)), np.ones(len(a))], np.r_[neg, a])
            cv["per_class"][f"{name}/{tag}"] = {"n": int(len(a)), "detection_at_review": round(float(np.mean(a >= thr_review)), 4), "roc_auc": round(float(auc), 4)}
    for kd in sorted(set(kind[(y == 0)])):
        r = risk[(y == 0) & (kind == kd)]
        cv["clean_fpr_by_kind"][kd] = {"n": int(len(r)), "review": round(float(np.mean(r >= thr_review)), 4), "strong": round(float(np.mean(r >= thr_strong)), 4)}
    m = fit(x, y, w)
    model = export(m)
    check = x[:: max(1, len(x) // 8)][:8]
    pj = predict_json(model, check)
    ps = m.predict_proba(check)
    assert np.abs(pj - ps).max() < 1e-6, "JSON trees disagree with scikit-learn"
    model["check"] = {"features": check.tolist(), "probabilities": [[round(float(v), 6) for v in p] for p in ps]}
    data = (json.dumps(model, separators=(",", ":"), sort_keys=True) + "\n").encode()
    with open(args.out, "wb") as fh:
        fh.write(data)
    imp = sorted(zip(spec["features"][:WIDTH], m.feature_importances_), key=lambda t: -t[1])[:15]
    metrics = {"model": {"name": MODEL_NAME, "file": os.path.basename(args.out), "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)},
               "params": PARAMS, "seed": SEED, "cross_validation": cv, "top_features": [[n, round(float(v), 4)] for n, v in imp]}
    json.dump(metrics, open(args.metrics, "w"), indent=2)
    print(json.dumps(metrics, indent=2))


if __name__ == "__main__":
    main()
