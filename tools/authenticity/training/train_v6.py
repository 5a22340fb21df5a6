"""Trains authenticity model v6 (settings v8, feature set v6 = 155 values) as JSON trees.

Same recipe as train_v5.py (real genuine negatives; attacks on real images, round 1 and round 2
with real editors' headers, and the generated attacks of corpus recipe v3 as positives; real and
generated weighted equally per class; folds grouped by source; thresholds = out-of-fold risk
exceeded by 5 % / 1 % of the REAL genuine tuning images; the held-out split is never read; the
ten scene-level cues held constant), on feature set v6: v5 plus the per-tile non-aligned grid
search (engine/authenticity/forensics/grid-tiles.ts, the `gt_*` values).

    .data/authenticity-venv/bin/python tools/authenticity/training/train_v6.py \\
        --real .data/authenticity/real/set/features.jsonl \\
        --synthetic .data/authenticity/corpus/train-v3/features.jsonl

Candidates compared on the tuning split only (out of fold): `--exclude-group chroma` holds the
26 chroma values constant, `--exclude-group grid` the 12 new ones (the same recipe without them:
what the new features add).
"""
import json
import os
import sys

import train_v3 as base
import train_v4

HERE = os.path.dirname(os.path.abspath(__file__))
# wt19b's candidate, never released; model v6 is train_v7.py's (settings v8), so this one writes other names.
base.MODEL_NAME = "authenticity-gbt-v6-gridtiles-candidate"
base.WIDTH = 155
base.PARAMS = dict(n_estimators=int(os.environ.get("V6_TREES", 400)), max_depth=int(os.environ.get("V6_DEPTH", 3)), learning_rate=float(os.environ.get("V6_LR", 0.04)), subsample=0.8, min_samples_leaf=6, max_features=0.5)

if __name__ == "__main__":
    argv = sys.argv[1:]
    if "--out" not in argv:
        argv += ["--out", os.path.join(HERE, "..", "..", "..", "engine", "authenticity", "model", base.MODEL_NAME + ".json")]
    if "--metrics" not in argv:
        argv += ["--metrics", os.path.join(HERE, "metrics-v6-gridtiles-candidate.json")]
    spec = json.load(open(os.path.join(HERE, "feature-spec.json")))
    while "--exclude-group" in argv:
        i = argv.index("--exclude-group")
        group = argv[i + 1]
        prefix = {"chroma": ("cb_dql_", "cr_dql_"), "grid": ("gt_",)}[group]
        train_v4.EXCLUDED.extend(n for n in spec["features"] if n.startswith(prefix))
        del argv[i:i + 2]
    sys.argv = [sys.argv[0]] + argv
    base.main()
