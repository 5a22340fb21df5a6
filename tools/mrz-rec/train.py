"""Trains the MRZ line recogniser on gen.py's synthetic lines and exports it to ONNX.

    python train.py --data a.npz b.npz --val val.npz --out mrz-rec.onnx [--real DIR] [--minutes 40]

A small convolutional CTC reader: the MRZ is one font (OCR-B) and 37 glyphs, so width matters
more than depth; convolutions only (no recurrent layer), so ONNX Runtime runs any line width on
one thread in a few milliseconds. `--real DIR` prints exact-line accuracy on tuning-side real line
crops (`index.json`: file, text) for information only: it is never a training input and no setting
here is chosen on it (the held-out and unseen sets are read only by bench:documents).
"""

import argparse
import json
import math
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<"
# gen.py renders 32 px high; lines are read at 24 px (measured: 32 px cost 2.4x the CPU per line).
GEN_HEIGHT = 32
HEIGHT = 24


def stretch(a):
    """Per-line contrast: the 2nd and 98th percentiles to -1 and 1 (engine/document/mrz/mrzrec.ts does the same)."""
    a = a.astype(np.float32)
    lo, hi = np.percentile(a, 2), np.percentile(a, 98)
    return np.clip((a - lo) / max(hi - lo, 8.0), 0, 1) * 2 - 1


def load(paths):
    images, texts = [], []
    for p in paths:
        d = np.load(p)
        flat, widths = d["flat"], d["widths"]
        o = 0
        for w, t in zip(widths, d["texts"]):
            n = int(w) * GEN_HEIGHT
            a = Image.fromarray(flat[o:o + n].reshape(GEN_HEIGHT, int(w)))
            images.append(np.asarray(a.resize((max(16, round(int(w) * HEIGHT / GEN_HEIGHT)), HEIGHT), Image.LANCZOS)))
            o += n
            texts.append(str(t))
    return images, texts


class Net(nn.Module):
    """`conv` (mrz-rec-1): convolutions only. `lstm`: the same front, then a bidirectional LSTM over
    the whole line instead of the two 1-D layers (context across the line: filler runs, the field a
    character sits in), built to make errors unlike the convolutional model's. Measured and not
    shipped: the scan read every tuning image alike with it (README "A second model")."""

    def __init__(self, arch="conv"):
        super().__init__()
        self.arch = arch

        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))

        self.features = nn.Sequential(
            block(1, 16), nn.MaxPool2d(2, 2),            # 12 x W/2
            block(16, 32), nn.MaxPool2d(2, 2),           # 6 x W/4
            block(32, 64), block(64, 64), nn.MaxPool2d((2, 1), (2, 1)),  # 3 x W/4
            block(64, 96),
            nn.Conv2d(96, 128, (3, 1), bias=False), nn.BatchNorm2d(128), nn.ReLU(inplace=True),  # 1 x W/4
        )
        self.drop = nn.Dropout(0.1)
        if arch == "lstm":
            self.rnn = nn.LSTM(128, 96, batch_first=True, bidirectional=True)
            self.head = nn.Conv1d(192, len(ALPHABET) + 1, 1)
        else:
            self.seq1 = nn.Conv1d(128, 128, 5, padding=2)
            self.seq2 = nn.Conv1d(128, 128, 5, padding=2)
            self.head = nn.Conv1d(128, len(ALPHABET) + 1, 1)

    def forward(self, x):
        f = self.features(x).squeeze(2)           # N x 128 x T
        if self.arch == "lstm":
            f, _ = self.rnn(self.drop(f).permute(0, 2, 1))
            f = f.permute(0, 2, 1)                # N x 192 x T
        else:
            f = f + F.relu(self.seq1(f))
            f = f + F.relu(self.seq2(self.drop(f)))
        return self.head(f).permute(0, 2, 1)      # N x T x C (logits; class 0 is CTC's blank)


def state_from_onnx(path, images):
    """A trainable `conv` Net from a committed ONNX model, for fine-tuning when its `.pt` is gone (the
    state dicts were never committed). The exporter folded each BatchNorm into its convolution
    (W' = W·γ/σ, b' = β − μ·γ/σ); this unfolds them: the convolution keeps W', and its BatchNorm gets
    the statistics of W'·x over `images` (real or synthetic lines) as running mean μ' and variance σ'²,
    with γ = sqrt(σ'² + ε) and β = μ' + b'. In eval mode that is exactly W'·x + b' (the ONNX model's
    output); in train mode the batch statistics are close to μ', σ', so fine-tuning starts where the
    committed model is instead of from a rescaled network."""
    import onnx
    from onnx import numpy_helper

    m = onnx.load(path)
    init = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    convs = [n for n in m.graph.node if n.op_type == "Conv"]
    model = Net("conv")
    pairs = [(model.features[k][0], model.features[k][1]) for k in (0, 2, 4, 5, 7)] + [(model.features[8], model.features[9])]
    folded = [c for c in convs if c.input[1].startswith("onnx::")]
    assert len(folded) == len(pairs), f"{path}: {len(folded)} folded convolutions, expected {len(pairs)}"
    state = model.state_dict()
    for name in ("seq1.weight", "seq1.bias", "seq2.weight", "seq2.bias", "head.weight", "head.bias"):
        state[name] = torch.from_numpy(init[name].copy())
    model.load_state_dict(state)
    x, _, _ = batchify(images, ["<"] * len(images), list(range(len(images))), False)
    model.eval()
    for (conv, bn), node in zip(pairs, folded):
        with torch.no_grad():
            conv.weight.copy_(torch.from_numpy(init[node.input[1]].copy()))
            bias = torch.from_numpy(init[node.input[2]].copy())
            y = x
            for layer in (l for f in model.features for l in (f if isinstance(f, nn.Sequential) else [f])):
                y = layer(y)
                if layer is conv:
                    break
            mean, var = y.mean((0, 2, 3)), y.var((0, 2, 3), unbiased=False)
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.bias.copy_(mean + bias)
    return model


def batchify(images, texts, idx, train):
    ims = [stretch(images[i]) for i in idx]
    if train:
        out = []
        for a in ims:
            # Light extra variation: width scale and contrast.
            if np.random.random() < 0.5:
                nw = max(16, int(a.shape[1] * np.random.uniform(0.85, 1.15)))
                a = np.asarray(Image.fromarray(((a + 1) * 127.5).astype(np.uint8)).resize((nw, HEIGHT), Image.BILINEAR), dtype=np.float32) / 127.5 - 1
            out.append(a)
        ims = out
    w = max(a.shape[1] for a in ims)
    w = int(math.ceil(w / 4) * 4)
    x = np.ones((len(ims), 1, HEIGHT, w), dtype=np.float32)
    for k, a in enumerate(ims):
        x[k, 0, :, : a.shape[1]] = a
        x[k, 0, :, a.shape[1]:] = np.median(a)
    lens = [len(texts[i]) for i in idx]
    target = [ALPHABET.index(c) + 1 for i in idx for c in texts[i]]
    return torch.from_numpy(x), torch.tensor(target, dtype=torch.long), torch.tensor(lens, dtype=torch.long)


def one_cycle(peak, frac):
    """One cycle: warm up over the first 5 %, cosine down to 2 % of the peak."""
    return peak * (frac / 0.05 if frac < 0.05 else 0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * (frac - 0.05) / 0.95)))


def save_model(model, out):
    """The state dict beside (`out.pt`, for fine-tuning) and the ONNX model the engine runs (any line width)."""
    torch.save(model.state_dict(), out + ".pt")
    model.eval()
    torch.onnx.export(model, (torch.zeros(1, 1, HEIGHT, 600),), out, input_names=["image"], output_names=["logits"],
                      dynamic_axes={"image": {0: "n", 3: "width"}, "logits": {0: "n", 1: "steps"}}, opset_version=17, dynamo=False)
    print("exported", out, flush=True)


def decode(logits):
    best = logits.argmax(-1).numpy()
    out = []
    for row in best:
        s, prev = [], -1
        for c in row:
            if c != prev and c != 0:
                s.append(ALPHABET[c - 1])
            prev = c
        out.append("".join(s))
    return out


def evaluate(model, images, texts, bs=64):
    model.eval()
    order = np.argsort([a.shape[1] for a in images])
    hits = 0
    with torch.no_grad():
        for s in range(0, len(order), bs):
            idx = order[s:s + bs]
            x, _, _ = batchify(images, texts, idx, False)
            got = decode(model(x))
            hits += sum(g == texts[i] for g, i in zip(got, idx))
    model.train()
    return hits / max(1, len(images))


def real_eval(model, d):
    idx = json.load(open(os.path.join(d, "index.json")))
    model.eval()
    hits, rows = 0, []
    with torch.no_grad():
        for r in idx:
            a = np.asarray(Image.open(os.path.join(d, r["file"])).convert("L"))
            w = max(16, int(round(a.shape[1] * HEIGHT / a.shape[0])))
            a = np.asarray(Image.open(os.path.join(d, r["file"])).convert("L").resize((w, HEIGHT), Image.LANCZOS))
            x, _, _ = batchify([a], [r["text"]], [0], False)
            g = decode(model(x))[0]
            hits += g == r["text"]
            rows.append((r["file"], g == r["text"], g, r["text"]))
    model.train()
    return hits, len(idx), rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--val", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--real")
    ap.add_argument("--minutes", type=float, default=40)
    ap.add_argument("--steps", type=int, help="a fixed number of steps instead of the time budget (reproducible schedule)")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--arch", choices=["conv", "lstm"], default="conv")
    ap.add_argument("--init", help="start from this state dict (train.py's .pt) instead of random weights: fine-tuning")
    ap.add_argument("--lr", type=float, default=2e-3, help="peak learning rate of the one cycle")
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    np.random.seed(a.seed)
    torch.set_num_threads(a.threads)
    images, texts = load(a.data)
    vim, vtx = load([a.val])
    print(f"train {len(images)} val {len(vim)}", flush=True)
    model = Net(a.arch)
    if a.init:
        model.load_state_dict(torch.load(a.init))
        print("init", a.init, flush=True)
    print("params", sum(p.numel() for p in model.parameters()), flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    # Batches of like width (less padding), shuffled.
    order = np.argsort([im.shape[1] for im in images])
    batches = [order[i:i + a.batch] for i in range(0, len(order), a.batch)]
    budget = a.minutes * 60
    t0 = time.time()
    step, epoch = 0, 0
    done = False
    while not done:
        epoch += 1
        np.random.shuffle(batches)
        for b in batches:
            frac = step / a.steps if a.steps else (time.time() - t0) / budget
            if frac >= 1:
                done = True
                break
            lr = one_cycle(a.lr, frac)
            for g in opt.param_groups:
                g["lr"] = lr
            x, y, lens = batchify(images, texts, b, True)
            logits = model(x)
            lp = F.log_softmax(logits, -1).permute(1, 0, 2)
            il = torch.full((x.shape[0],), lp.shape[0], dtype=torch.long)
            loss = ctc(lp, y, il, lens)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            step += 1
            if step % 200 == 0:
                print(f"epoch {epoch} step {step} t {time.time() - t0:.0f}s lr {lr:.5f} loss {loss.item():.3f}", flush=True)
            if step % 1000 == 0:
                msg = f"  val exact {evaluate(model, vim, vtx):.3f}"
                if a.real:
                    h, n, _ = real_eval(model, a.real)
                    msg += f" real-tuning {h}/{n}"
                print(msg, flush=True)
    print(f"steps {step}", flush=True)
    print(f"final val exact {evaluate(model, vim, vtx):.4f}", flush=True)
    if a.real:
        h, n, rows = real_eval(model, a.real)
        print(f"final real-tuning exact {h}/{n}", flush=True)
        for r in rows:
            if not r[1]:
                print("  miss", r[0], r[2], "| truth", r[3])
    save_model(model, a.out)


if __name__ == "__main__":
    main()
