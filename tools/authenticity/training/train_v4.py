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
base.PARAMS = dict(n_estimators=int(os.environ.get("V4_TREES", 200)), max_depth=int(os.environ.get("V4_DEPTH", 3)), learning_rate=float(os.environ.get("V4_LR", 0.08)), subsample=0.8, min_samples_leaf=6, max_features=0.5)

# Whole-scene levels (borders, black/white level, colour, glare): on the real set they separate
# the attacks' centre crops from the genuine full frames (composition, not tampering), so model v4
# does not read them (held constant); the spectral and tile features still see recaptures.
SCENE_FEATURES = ["dark_border", "dark_border_sides", "glare_share", "glare_tile_max", "saturation_p50", "saturation_p95",
                  "black_level", "white_level", "blue_cast", "colorfulness"]
EXCLUDED = list(SCENE_FEATURES)

_load = base.load


def load_without_excluded(args, spec):
    x, y, fold, real, kind = _load(args, spec)
    for name in EXCLUDED:
        x[:, spec["features"].index(name)] = 0.0
    return x, y, fold, real, kind


base.load = load_without_excluded

if __name__ == "__main__":
    import sys
    argv = sys.argv[1:]
    if "--out" not in argv:
        argv += ["--out", os.path.join(HERE, "..", "..", "..", "engine", "authenticity", "model", base.MODEL_NAME + ".json")]
    if "--metrics" not in argv:
        argv += ["--metrics", os.path.join(HERE, "metrics-v4.json")]
    if "--exclude" in argv:
        i = argv.index("--exclude")
        EXCLUDED[:] = [n for n in argv[i + 1].split(",") if n]
        del argv[i:i + 2]
    sys.argv = [sys.argv[0]] + argv
    base.main()
