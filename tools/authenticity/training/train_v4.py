"""Trains authenticity model v4 (settings v6, feature set v4 = 117 values) as JSON trees.

Same recipe as train_v3.py (real genuine negatives, attacks on real images and the generated
attacks as positives, real and generated weighted equally per class, folds grouped by source,
thresholds = out-of-fold risk exceeded by 5 % / 1 % of the REAL genuine tuning images; the
held-out split is never read), on the longer feature vector: v3 plus the aligned double-compression
likelihood and its per-block map, the shifted-grid numbers and the 32-px tile maps.

    .data/authenticity-venv/bin/python tools/authenticity/training/train_v4.py \
        --real .data/authenticity/real/set/features.jsonl \
        --synthetic .data/authenticity/corpus/train/features.jsonl
"""
import os

import train_v3 as base

HERE = os.path.dirname(os.path.abspath(__file__))
base.MODEL_NAME = "authenticity-gbt-v4"
base.WIDTH = 117
base.PARAMS = dict(n_estimators=200, max_depth=3, learning_rate=0.08, subsample=0.8, min_samples_leaf=6, max_features=0.5)

if __name__ == "__main__":
    import sys
    argv = sys.argv[1:]
    if "--out" not in argv:
        argv += ["--out", os.path.join(HERE, "..", "..", "..", "engine", "authenticity", "model", base.MODEL_NAME + ".json")]
    if "--metrics" not in argv:
        argv += ["--metrics", os.path.join(HERE, "metrics-v4.json")]
    sys.argv = [sys.argv[0]] + argv
    base.main()
