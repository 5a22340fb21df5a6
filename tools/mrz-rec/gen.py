"""Synthetic MRZ text-line crops for training the MRZ line recogniser (engine/document/mrz/mrzrec.ts).

Every sample is one MRZ line as `splitTextLines` (engine/document/mrz/scan.ts) cuts it from a band:
greyscale, the band's full width (margins, sometimes a card edge), a third of a line height above and
below (sometimes a sliver of the neighbouring line). The print is OCR-B (the three plain faces
Debian's fonts-ocr-b ships: regular, sharp, slanted; strokes thickened for bold print), degraded the
way phone photos and scans of specimen documents are: characters down to ~5 px high, blur, JPEG,
noise, tinted guilloche backgrounds, uneven light, glare, slight rotation and keystone, ink bleeding
or thinning. Lines are written 32 px high; train.py reads them at 24 px.

No real image is used: the real photos and scans are for measuring (bench:documents), and their
held-out part must stay out of every tuning step. Seeded: `python gen.py --seed 1 --count N --out F`
writes the same file every time (numpy + Pillow versions pinned in requirements.txt).
"""

import argparse
import io
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<"
FONT_DIR = "/usr/share/fonts/opentype/ocr-b/"
FONTS = ["OCRB.otf", "OCRBS.otf", "OCRBL.otf"]
# `--fonts mixed`: a share of lines in other sans faces (Debian's fonts-dejavu-core), for MRZs not
# printed in true OCR-B: the recogniser trained on OCR-B alone reads a MIDV-2020 phone photo's
# sans-serif MRZ with D as B and U as X. Measured and not in any shipped model: it changed no scan
# (tools/mrz-rec/README.md "Font variety").
OTHER_FONT_DIR = "/usr/share/fonts/truetype/dejavu/"
OTHER_FONTS = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf",
               "DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf"]
OTHER_FONT_SHARE = 0.3
# Model input height (the TS side resizes every line crop to this height).
HEIGHT = 32
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGITS = "0123456789"
STATES = ["MOZ", "MEX", "D<<", "UTO", "GBR", "USA", "FRA", "ESP", "PRT", "BRA", "CZE", "AUS", "CHE", "NLD", "ITA", "AZE",
          "CAN", "IND", "CHN", "JPN", "ZAF", "NGA", "KEN", "ARG", "COL", "PER", "CHL", "POL", "SWE", "NOR", "FIN", "IRL",
          "BEL", "AUT", "GRC", "TUR", "RUS", "UKR", "ROU", "HUN", "SVK", "EST", "LVA", "LTU", "ISL", "NZL", "SGP", "XXA"]


def rand_name(r, lo=2, hi=12):
    return "".join(r.choice(list(LETTERS), size=int(r.integers(lo, hi + 1))))


def names_field(r, width):
    parts = [rand_name(r)]
    if r.random() < 0.4:
        parts.append(rand_name(r))
    s = "<".join(parts) + "<<"
    given = [rand_name(r) for _ in range(int(r.integers(1, 4)))]
    s += "<".join(given)
    if len(s) > width:
        s = s[:width]
    return s + "<" * (width - len(s))


def digits(r, n):
    return "".join(r.choice(list(DIGITS), size=n))


def alnum(r, n, digit_share=0.6):
    return "".join(r.choice(list(DIGITS)) if r.random() < digit_share else r.choice(list(LETTERS)) for _ in range(n))


def docnum(r, n):
    k = int(r.integers(6, n + 1))
    s = alnum(r, k)
    return s + "<" * (n - k)


def sex(r):
    return r.choice(["M", "F", "<", "X"], p=[0.45, 0.45, 0.07, 0.03])


def optional(r, n):
    if r.random() < 0.6:
        return "<" * n
    k = int(r.integers(1, n + 1))
    return alnum(r, k, 0.8) + "<" * (n - k)


def mrz_line(r):
    """One line of a plausible MRZ (structure, not check digits: the recogniser reads, it does not check)."""
    kind = r.choice(["td3n", "td3d", "td1a", "td1b", "td1c", "td2n", "td2d", "free"], p=[0.17, 0.17, 0.12, 0.12, 0.12, 0.1, 0.1, 0.1])
    st = r.choice(STATES)
    if kind == "td3n":
        return r.choice(["P<", "PP", "PD", "V<", "PO"]) + st + names_field(r, 39)
    if kind == "td3d":
        return docnum(r, 9) + digits(r, 1) + r.choice(STATES) + digits(r, 7) + sex(r) + digits(r, 7) + optional(r, 14) + digits(r, 2)
    if kind == "td1a":
        return r.choice(["I<", "ID", "IR", "AC", "C<", "IP"]) + st + docnum(r, 9) + digits(r, 1) + optional(r, 15)
    if kind == "td1b":
        return digits(r, 7) + sex(r) + digits(r, 7) + r.choice(STATES) + optional(r, 11) + digits(r, 1)
    if kind == "td1c":
        return names_field(r, 30)
    if kind == "td2n":
        return r.choice(["I<", "ID", "V<", "P<"]) + st + names_field(r, 31)
    if kind == "td2d":
        return docnum(r, 9) + digits(r, 1) + r.choice(STATES) + digits(r, 7) + sex(r) + digits(r, 7) + optional(r, 7) + digits(r, 1)
    n = int(r.choice([30, 36, 44]))
    return "".join(r.choice(list(ALPHABET), p=[0.5 / 10] * 10 + [0.25 / 26] * 26 + [0.25]) for _ in range(n))


_font_cache = {}


def font(name, size):
    key = (name, size)
    if key not in _font_cache:
        _font_cache[key] = ImageFont.truetype((OTHER_FONT_DIR if name in OTHER_FONTS else FONT_DIR) + name, size)
    return _font_cache[key]


def background(r, w, h):
    """Paper or card: a tint, a gradient, guilloche waves, speckle."""
    base = np.array([r.uniform(150, 250)] * 3) + r.normal(0, 18, 3)
    img = np.ones((h, w, 3)) * base
    yy, xx = np.mgrid[0:h, 0:w]
    if r.random() < 0.7:
        gx, gy = r.normal(0, 40), r.normal(0, 40)
        img += (gx * (xx / w - 0.5) + gy * (yy / h - 0.5))[..., None]
    pil = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    d = ImageDraw.Draw(pil)
    if r.random() < 0.55:
        for _ in range(int(r.integers(2, 14))):
            col = tuple(int(c) for c in np.clip(base + r.normal(-40, 35, 3), 0, 255))
            amp, per, ph, y0 = r.uniform(2, h * 0.6), r.uniform(20, 300), r.uniform(0, 6.3), r.uniform(0, h)
            pts = [(x, y0 + amp * math.sin(ph + 2 * math.pi * x / per)) for x in range(0, w + 8, 6)]
            d.line(pts, fill=col, width=int(r.integers(1, 4)))
    return pil


def render(r, text, fonts="ocrb"):
    """The line at a high resolution (cap height ~40 px) on its background, then degraded to the training height."""
    fname = FONTS[int(r.choice(len(FONTS), p=[0.6, 0.3, 0.1]))]
    # Only `mixed` draws here, so `--fonts ocrb` writes the same file as before the option existed.
    other = fonts == "mixed" and r.random() < OTHER_FONT_SHARE
    if other:
        fname = OTHER_FONTS[int(r.integers(len(OTHER_FONTS)))]
    stroke = int(r.choice(3, p=[0.55, 0.3, 0.15]))
    size = 56
    f = font(fname, size)
    # A proportional face is set at a fixed pitch, as MRZ printers do: the widest glyph's advance,
    # each glyph centred in its cell.
    pitch = (f.getlength("M") * r.uniform(0.95, 1.3)) if other else f.getlength("<") * r.uniform(0.94, 1.1)
    bbox = f.getbbox("E")
    cap = bbox[3] - bbox[1]
    line_h = cap * r.uniform(1.55, 1.85)
    left = pitch * (r.uniform(0.0, 2.5) if r.random() < 0.8 else r.uniform(2.5, 6))
    right = pitch * (r.uniform(0.0, 2.5) if r.random() < 0.8 else r.uniform(2.5, 6))
    w = int(left + pitch * len(text) + right + 2)
    h = int(line_h)
    top_text = (h - cap) / 2 + r.normal(0, cap * 0.08) - bbox[1]
    pil = background(r, w, h)
    d = ImageDraw.Draw(pil)
    ink_level = r.uniform(0, 110) if r.random() < 0.85 else r.uniform(110, 150)
    ink = tuple(int(c) for c in np.clip(ink_level + r.normal(0, 15, 3), 0, 255))
    for i, ch in enumerate(text):
        x = left + i * pitch + r.normal(0, pitch * 0.015) + ((pitch - f.getlength(ch)) / 2 if other else 0)
        d.text((x, top_text + r.normal(0, cap * 0.01)), ch, font=f, fill=ink, stroke_width=stroke, stroke_fill=ink)
    # A sliver of the neighbouring MRZ lines (the crop takes a third of a line height each side).
    for side in (-1, 1):
        if r.random() < 0.35:
            other = mrz_line(r)
            y = top_text + side * line_h * r.uniform(0.95, 1.25)
            for i, ch in enumerate(other[: len(text)]):
                d.text((left + i * pitch, y), ch, font=f, fill=ink)
    # A card edge or a dark border at either end.
    if r.random() < 0.15:
        e = int(r.uniform(2, pitch * 1.5))
        col = int(r.uniform(0, 60)) if r.random() < 0.6 else int(r.uniform(230, 255))
        if r.random() < 0.5:
            d.rectangle([0, 0, e, h], fill=(col, col, col))
        else:
            d.rectangle([w - e, 0, w, h], fill=(col, col, col))
    # Ink bleeding or thinning, at print resolution.
    u = r.random()
    if u < 0.15:
        pil = pil.filter(ImageFilter.MinFilter(3))
    elif u < 0.25:
        pil = pil.filter(ImageFilter.MaxFilter(3))
    # Rotation and keystone.
    if r.random() < 0.6:
        pil = pil.rotate(r.normal(0, 0.8), resample=Image.BICUBIC, expand=False, fillcolor=tuple(int(c) for c in np.array(pil)[0, 0]))
    if r.random() < 0.3:
        k = r.uniform(-0.06, 0.06) * h
        pil = pil.transform(pil.size, Image.QUAD, (0, 0 - k, 0, h + k, w, h - k, w, 0 + k), resample=Image.BICUBIC)
    # Glare: a bright elliptical blob.
    if r.random() < 0.12:
        arr = np.asarray(pil).astype(np.float32)
        yy, xx = np.mgrid[0:h, 0:w]
        cx, cy, sx = r.uniform(0, w), r.uniform(0, h), r.uniform(pitch, pitch * 8)
        g = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / (sx * 0.6)) ** 2))
        arr = arr + g[..., None] * r.uniform(60, 200)
        pil = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    # Down to the capture's character height (log-uniform 5..22 px), blurred and compressed there.
    cap_px = math.exp(r.uniform(math.log(5), math.log(22)))
    s = cap_px / cap
    small = pil.resize((max(8, int(w * s)), max(4, int(h * s))), Image.BILINEAR if r.random() < 0.5 else Image.BOX)
    b = r.uniform(0, 0.9) if r.random() < 0.7 else 0
    if b > 0.15:
        small = small.filter(ImageFilter.GaussianBlur(b))
    arr = np.asarray(small).astype(np.float32)
    if r.random() < 0.6:
        arr = arr + r.normal(0, r.uniform(2, 14), arr.shape)
    small = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    if r.random() < 0.75:
        buf = io.BytesIO()
        small.save(buf, "JPEG", quality=int(r.uniform(18, 95)))
        small = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
    grey = small.convert("L")
    # To the model's height, as the TS side does (sharp resizes with a lanczos-like kernel).
    out_w = max(16, int(round(grey.width * HEIGHT / grey.height)))
    return np.asarray(grey.resize((out_w, HEIGHT), Image.LANCZOS if r.random() < 0.7 else Image.BILINEAR), dtype=np.uint8)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--out", required=True)
    ap.add_argument("--fonts", choices=["ocrb", "mixed"], default="ocrb")
    a = ap.parse_args()
    r = np.random.default_rng(a.seed)
    images, texts = [], []
    for i in range(a.count):
        t = mrz_line(r)
        images.append(render(r, t, a.fonts))
        texts.append(t)
    widths = np.array([im.shape[1] for im in images], dtype=np.int32)
    flat = np.concatenate([im.reshape(-1) for im in images])
    np.savez(a.out, flat=flat, widths=widths, texts=np.array(texts))


if __name__ == "__main__":
    main()
