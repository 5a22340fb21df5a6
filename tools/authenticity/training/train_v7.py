"""Trains authenticity model v6 (settings v8, feature set v7 = 162 values) as JSON trees.

Recipe of train_v5.py (real genuine negatives; attacks on real images as positives; clean as heavy
as all attacks; folds grouped by source image; thresholds = out-of-fold risk exceeded by 5 % / 1 %
of the REAL genuine tuning images; the held-out split is never read; the ten scene-level cues held
constant), on the rows of the real set's TUNING split as rebuilt in wt25c: round 1 (recipe's
editors), round 2 (real editors' headers), round 3 (splices with an unblurred donor at other
qualities) and the 30 tuning phone photos added in wt19b. Feature set v7: v6's layout with the
per-tile grid-search values at 0 (not run; held constant here), plus the EXIF camera vs
quantisation-table check (engine/authenticity/metadata/camera-headers.ts; training rows computed
with their own source left out of the catalogue).

    .data/authenticity-venv/bin/python tools/authenticity/training/train_v7.py \\
        --real .data/authenticity/real/set/features.jsonl [--synthetic …/features.jsonl]

Candidates (chosen on the TUNING split out of fold only, tools/authenticity/training/oof_report.py):
`--exclude-group header` holds the 7 header values constant (what they add), `--exclude-group chroma`
the 26 chroma values; `--width 117` reads model v4's prefix (the released model's inputs, retrained
on the same rows: the baseline).
V7_TREES / V7_DEPTH / V7_LR set the boosting parameters (default 400 / 3 / 0.04, as model v5).
"""
import json
import os
import sys

import train_v3 as base
import train_v4

HERE = os.path.dirname(os.path.abspath(__file__))
base.MODEL_NAME = "authenticity-gbt-v6"
base.WIDTH = 162
base.PARAMS = dict(n_estimators=int(os.environ.get("V7_TREES", 400)), max_depth=int(os.environ.get("V7_DEPTH", 3)), learning_rate=float(os.environ.get("V7_LR", 0.04)), subsample=0.8, min_samples_leaf=6, max_features=0.5)
GROUPS = {"chroma": ("cb_dql_", "cr_dql_"), "grid": ("gt_",), "header": ("hdr_",)}


if __name__ == "__main__":
    argv = sys.argv[1:]
    if "--out" not in argv:
        argv += ["--out", os.path.join(HERE, "..", "..", "..", "engine", "authenticity", "model", base.MODEL_NAME + ".json")]
    if "--metrics" not in argv:
        argv += ["--metrics", os.path.join(HERE, "metrics-v6.json")]
    spec = json.load(open(os.path.join(HERE, "feature-spec.json")))
    # The grid-tile values are 0 in feature set v7 (not run); rows patched from v6 carry 0 too.
    train_v4.EXCLUDED.extend(n for n in spec["features"] if n.startswith(GROUPS["grid"]))
    while "--exclude-group" in argv:
        i = argv.index("--exclude-group")
        train_v4.EXCLUDED.extend(n for n in spec["features"] if n.startswith(GROUPS[argv[i + 1]]))
        del argv[i:i + 2]
    if "--width" in argv:
        i = argv.index("--width")
        base.WIDTH = int(argv[i + 1])
        del argv[i:i + 2]
    # A shorter prefix (--width 117) holds only the excluded names it has.
    train_v4.EXCLUDED[:] = [n for n in train_v4.EXCLUDED if spec["features"].index(n) < base.WIDTH]
    sys.argv = [sys.argv[0]] + argv
    base.main()
