"""Trains authenticity model v7 (settings v9, feature set v8 = 180 values) as JSON trees.

Recipe of train_v7.py (model v6): real genuine negatives, attacks on real images as positives, clean as
heavy as all attacks, folds grouped by source image, thresholds = out-of-fold risk exceeded by 5 % / 1 %
of the REAL genuine tuning images, the held-out split never read, the ten scene-level cues and v6's
per-tile grid values held constant. Feature set v8 = v7 plus the region scan statistics
(engine/authenticity/forensics/region-scan.ts: for windows of a few sizes, how much the mean of each
within-image map inside differs from outside, in standard errors; the maximum over windows).

    .data/authenticity-venv/bin/python tools/authenticity/training/train_v8.py \\
        --real .data/authenticity/real/set/features.jsonl [--synthetic …/train-v3/features.jsonl]

Generated documents (`--synthetic`): SYNTH_WEIGHT (default 0.25) scales their weight against the real
rows of the same class (1 = equal, as models v3–v5; wt25c measured that equal weight costs real
detection). Candidates (chosen on the TUNING split out of fold only, oof_report.py):
`--exclude-group scan` holds the 18 region scan values constant (= model v6's inputs on the same rows),
`--exclude-group header|chroma` as train_v7.py. V8_TREES / V8_DEPTH / V8_LR: boosting parameters
(default 400 / 3 / 0.04, as model v6).
"""
import json
import os
import sys

import numpy as np

import train_v3 as base
import train_v4

HERE = os.path.dirname(os.path.abspath(__file__))
base.MODEL_NAME = "authenticity-gbt-v7"
base.WIDTH = 180
base.PARAMS = dict(n_estimators=int(os.environ.get("V8_TREES", 400)), max_depth=int(os.environ.get("V8_DEPTH", 3)), learning_rate=float(os.environ.get("V8_LR", 0.04)), subsample=0.8, min_samples_leaf=6, max_features=0.5)
GROUPS = {"chroma": ("cb_dql_", "cr_dql_"), "grid": ("gt_",), "header": ("hdr_",), "scan": ("rs_",)}
SYNTH_WEIGHT = float(os.environ.get("SYNTH_WEIGHT", 0.25))

_weights = base.weights


def weights(y, real):
    # Real and generated rows first weighted equally per class (train_v3.weights), then the generated
    # part scaled down: one part of training, not an equal half of every class.
    w = _weights(y, real)
    w[real == 0] *= SYNTH_WEIGHT
    return w * len(y) / w.sum()


base.weights = weights


if __name__ == "__main__":
    argv = sys.argv[1:]
    if "--out" not in argv:
        argv += ["--out", os.path.join(HERE, "..", "..", "..", "engine", "authenticity", "model", base.MODEL_NAME + ".json")]
    if "--metrics" not in argv:
        argv += ["--metrics", os.path.join(HERE, "metrics-v7.json")]
    spec = json.load(open(os.path.join(HERE, "feature-spec.json")))
    train_v4.EXCLUDED.extend(n for n in spec["features"] if n.startswith(GROUPS["grid"]))
    while "--exclude-group" in argv:
        i = argv.index("--exclude-group")
        train_v4.EXCLUDED.extend(n for n in spec["features"] if n.startswith(GROUPS[argv[i + 1]]))
        del argv[i:i + 2]
    sys.argv = [sys.argv[0]] + argv
    base.main()
