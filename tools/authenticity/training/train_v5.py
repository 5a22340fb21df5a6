"""Trains authenticity model v5 (settings v7, feature set v5 = 143 values) as JSON trees.

Same recipe as train_v4.py (real genuine negatives, attacks on real images and the generated
attacks as positives, real and generated weighted equally per class, folds grouped by source,
thresholds = out-of-fold risk exceeded by 5 % / 1 % of the REAL genuine tuning images; the
held-out split is never read; the ten scene-level cues held constant), with:
  - feature set v5: v4 plus the double-quantisation likelihood and map on the two chroma planes;
  - round-2 attacks on the real tuning images saved with REAL editors' headers
    (tools/authenticity/attacks/editor-tables.json: Photoshop's own tables, GIMP / paint.net
    Annex K) as more positives (they are rows of the same real features file);
  - generated documents of corpus recipe v3 (the simulated camera writes real cameras' headers).

    .data/authenticity-venv/bin/python tools/authenticity/training/train_v5.py \\
        --real .data/authenticity/real/set/features.jsonl \\
        --synthetic .data/authenticity/corpus/train-v3/features.jsonl
"""
import os
import sys

import train_v3 as base
import train_v4  # noqa: F401  (installs the scene-cue exclusion on base.load)

HERE = os.path.dirname(os.path.abspath(__file__))
base.MODEL_NAME = "authenticity-gbt-v5"
base.WIDTH = 143
base.PARAMS = dict(n_estimators=int(os.environ.get("V5_TREES", 400)), max_depth=int(os.environ.get("V5_DEPTH", 3)), learning_rate=float(os.environ.get("V5_LR", 0.04)), subsample=0.8, min_samples_leaf=6, max_features=0.5)

if __name__ == "__main__":
    argv = sys.argv[1:]
    if "--out" not in argv:
        argv += ["--out", os.path.join(HERE, "..", "..", "..", "engine", "authenticity", "model", base.MODEL_NAME + ".json")]
    if "--metrics" not in argv:
        argv += ["--metrics", os.path.join(HERE, "metrics-v5.json")]
    sys.argv = [sys.argv[0]] + argv
    base.main()
