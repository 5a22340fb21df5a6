"""Does the MRZ line recogniser learn from real lines? A grouped cross-validation on tuning crops.

    npm run bench:mrz-lines -- --dump .data/mrz-line-crops
    python real_cv.py --crops .data/mrz-line-crops --init mrz-rec-1.onnx.pt --data train-11.npz \
        --fold 0 --real-share 0.25 [--folds 2 --steps 1000 --lr 5e-4]
    python real_cv.py ... --fold -1 --out mrz-rec-3.onnx     # the same recipe on every fold's crops
    python real_cv.py --init ../../engine/document/mrz/model/mrz-rec-3.onnx ...   # from a committed model

The crops are the tuning images' MRZ lines as the scan cuts them, at every dumped scale (full size
and bench:documents' small print). Images are grouped so that two pictures of one document (the
same MRZ line anywhere) always fall in the same fold; the fold is a hash of the group, fixed before
any run. For fold k, the recogniser is fine-tuned from `--init` for `--steps` steps on synthetic
lines (`--data`) with `--real-share` of each batch drawn from the real crops of the OTHER folds, then
read on fold k's crops beside the `--init` model. `--real-share 0` is the control: the same steps on
synthetic lines only, so a gain can be told apart from more training. `--fold -1` trains the same
recipe on every tuning crop and exports the model (`--out`, ONNX, and its state dict as `.pt`):
once real lines are training input, only the held-out and unseen sets can measure it, and the
cross-validation above is the estimate made before that.

Held-out and unseen images are never here: bench:mrz-lines dumps tuning images only
(tools/mrz-rec/README.md "Real lines").
"""

import argparse
import hashlib
import json
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image, ImageFilter

from train import HEIGHT, Net, batchify, decode, load, one_cycle, save_model, state_from_onnx


def groups_of(entries):
    """Union of images that share any MRZ line: one document photographed several times is one group."""
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    by_text = {}
    for e in entries:
        find(e["image"])
        if e["text"] in by_text:
            parent[find(e["image"])] = find(by_text[e["text"]])
        else:
            by_text[e["text"]] = e["image"]
    return {e["image"]: find(e["image"]) for e in entries}


def fold_of(group, folds):
    return int(hashlib.sha1(group.encode()).hexdigest(), 16) % folds


def read_crop(path):
    a = Image.open(path).convert("L")
    w = max(16, int(round(a.width * HEIGHT / a.height)))
    return np.asarray(a.resize((w, HEIGHT), Image.LANCZOS))


def jitter(a, r):
    """Real crops are few: vary them (blur, contrast, a little shift) so they are not memorised as pixels."""
    im = Image.fromarray(a)
    if r.random() < 0.4:
        im = im.filter(ImageFilter.GaussianBlur(r.uniform(0.3, 1.0)))
    arr = np.asarray(im).astype(np.float32)
    arr = (arr - arr.mean()) * r.uniform(0.7, 1.2) + arr.mean() + r.normal(0, 12)
    arr = arr + r.normal(0, r.uniform(0, 8), arr.shape)
    dx = int(r.integers(-3, 4))
    arr = np.roll(arr, dx, axis=1)
    return np.clip(arr, 0, 255).astype(np.uint8)


def cer(got, truth):
    d = list(range(len(truth) + 1))
    for i, g in enumerate(got, 1):
        prev, d[0] = d[0], i
        for j, t in enumerate(truth, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (g != t))
    return d[len(truth)]


def score(model, rows):
    model.eval()
    out = []
    with torch.no_grad():
        for img, text in rows:
            x, _, _ = batchify([img], [text], [0], False)
            g = decode(model(x))[0]
            out.append((g == text, cer(g, text)))
    model.train()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--crops", required=True)
    ap.add_argument("--init", required=True)
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--fold", type=int, required=True)
    ap.add_argument("--folds", type=int, default=2)
    ap.add_argument("--real-share", type=float, default=0.25)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", help="export the fine-tuned model here (required with --fold -1; with a fold, for a scan-level check)")
    a = ap.parse_args()
    if a.fold < 0 and not a.out:
        ap.error("--fold -1 trains on every crop: give --out")
    torch.manual_seed(a.seed)
    np.random.seed(a.seed)
    r = np.random.default_rng(a.seed)
    torch.set_num_threads(a.threads)

    scales = sorted(d for d in os.listdir(a.crops) if os.path.exists(os.path.join(a.crops, d, "index.json")))
    entries = [dict(e, scale=s, path=os.path.join(a.crops, s, e["file"])) for s in scales for e in json.load(open(os.path.join(a.crops, s, "index.json")))]
    group = groups_of(entries)
    for e in entries:
        e["fold"] = fold_of(group[e["image"]], a.folds)
    train_rows = [(read_crop(e["path"]), e["text"]) for e in entries if e["fold"] != a.fold]
    test = [e for e in entries if e["fold"] == a.fold]
    test_rows = [(read_crop(e["path"]), e["text"]) for e in test]
    n_groups = len({group[e["image"]] for e in test})
    print(f"fold {a.fold}/{a.folds}: train {len(train_rows)} real lines, test {len(test_rows)} lines of {n_groups} documents; real share {a.real_share}", flush=True)

    images, texts = load(a.data)
    if a.init.endswith(".onnx"):
        # A committed model whose state dict is gone: unfolded from the ONNX file, its BatchNorm
        # statistics taken on synthetic lines (never on the fold's real crops).
        model = state_from_onnx(a.init, images[:256])
    else:
        model = Net("conv")
        model.load_state_dict(torch.load(a.init))
    before = score(model, test_rows)

    order = np.argsort([im.shape[1] for im in images])
    n_real = int(round(a.batch * a.real_share))
    n_syn = a.batch - n_real
    syn_batches = [order[i:i + n_syn] for i in range(0, len(order) - n_syn, n_syn)]
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    t0 = time.time()
    for step in range(a.steps):
        frac = step / a.steps
        lr = one_cycle(a.lr, frac)
        for g in opt.param_groups:
            g["lr"] = lr
        idx = syn_batches[int(r.integers(len(syn_batches)))]
        ims = [images[i] for i in idx]
        txs = [texts[i] for i in idx]
        for k in r.integers(len(train_rows), size=n_real) if n_real else []:
            ims.append(jitter(train_rows[k][0], r))
            txs.append(train_rows[k][1])
        x, y, lens = batchify(ims, txs, list(range(len(ims))), True)
        lp = F.log_softmax(model(x), -1).permute(1, 0, 2)
        loss = ctc(lp, y, torch.full((x.shape[0],), lp.shape[0], dtype=torch.long), lens)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        if (step + 1) % 250 == 0:
            print(f"step {step + 1} t {time.time() - t0:.0f}s loss {loss.item():.3f}", flush=True)
    if a.out:
        save_model(model, a.out)
    if a.fold < 0:
        return
    after = score(model, test_rows)

    print(f"\n| fold | scale | lines | init exact / CER | fine-tuned exact / CER |\n|---|---|---|---|---|")
    for s in scales + ["all"]:
        ix = [i for i, e in enumerate(test) if s in ("all", e["scale"])]
        chars = sum(len(test[i]["text"]) for i in ix) or 1
        fmt = lambda res: f"{sum(res[i][0] for i in ix)} / {100 * sum(res[i][1] for i in ix) / chars:.2f} %"
        print(f"| {a.fold} | {s} | {len(ix)} | {fmt(before)} | {fmt(after)} |")
    for i, e in enumerate(test):
        if before[i][0] != after[i][0]:
            print(f"  {'fixed' if after[i][0] else 'broken'}: {e['scale']} {e['file']}")


if __name__ == "__main__":
    main()
