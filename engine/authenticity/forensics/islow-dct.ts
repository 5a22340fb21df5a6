/**
 * libjpeg's accurate integer forward DCT (jfdctint.c, "islow") and its quantiser, bit for bit.
 * libjpeg-turbo and mozjpeg (inside sharp/libvips, and in most editors and browsers) use this DCT
 * by default, so re-encoding a decoded image through it reproduces what a second save with the
 * same table would write: the basis of the recompression-stability test.
 */
const CONST_BITS = 13;
const PASS1_BITS = 2;
const FIX_0_298631336 = 2446;
const FIX_0_390180644 = 3196;
const FIX_0_541196100 = 4433;
const FIX_0_765366865 = 6270;
const FIX_0_899976223 = 7373;
const FIX_1_175875602 = 9633;
const FIX_1_501321110 = 12299;
const FIX_1_847759065 = 15137;
const FIX_1_961570560 = 16069;
const FIX_2_053119869 = 16819;
const FIX_2_562915447 = 20995;
const FIX_3_072711026 = 25172;

const descale = (x: number, n: number) => (x + (1 << (n - 1))) >> n;

/** In-place forward DCT of 64 level-shifted samples (row-major); output scaled by 8 like libjpeg. */
export function fdctIslow(data: Int32Array): void {
  for (let pass = 0; pass < 2; pass++) {
    const stride = pass === 0 ? 1 : 8;
    const step = pass === 0 ? 8 : 1;
    for (let line = 0; line < 8; line++) {
      const o = line * step;
      const d0 = data[o]!;
      const d1 = data[o + stride]!;
      const d2 = data[o + 2 * stride]!;
      const d3 = data[o + 3 * stride]!;
      const d4 = data[o + 4 * stride]!;
      const d5 = data[o + 5 * stride]!;
      const d6 = data[o + 6 * stride]!;
      const d7 = data[o + 7 * stride]!;
      const tmp0 = d0 + d7;
      let tmp7 = d0 - d7;
      const tmp1 = d1 + d6;
      let tmp6 = d1 - d6;
      const tmp2 = d2 + d5;
      let tmp5 = d2 - d5;
      const tmp3 = d3 + d4;
      let tmp4 = d3 - d4;
      const tmp10 = tmp0 + tmp3;
      const tmp13 = tmp0 - tmp3;
      const tmp11 = tmp1 + tmp2;
      const tmp12 = tmp1 - tmp2;
      const shiftOdd = pass === 0 ? CONST_BITS - PASS1_BITS : CONST_BITS + PASS1_BITS;
      if (pass === 0) {
        data[o] = (tmp10 + tmp11) << PASS1_BITS;
        data[o + 4 * stride] = (tmp10 - tmp11) << PASS1_BITS;
      } else {
        data[o] = descale(tmp10 + tmp11, PASS1_BITS);
        data[o + 4 * stride] = descale(tmp10 - tmp11, PASS1_BITS);
      }
      let z1 = (tmp12 + tmp13) * FIX_0_541196100;
      data[o + 2 * stride] = descale(z1 + tmp13 * FIX_0_765366865, shiftOdd);
      data[o + 6 * stride] = descale(z1 + tmp12 * -FIX_1_847759065, shiftOdd);
      z1 = tmp4 + tmp7;
      let z2 = tmp5 + tmp6;
      let z3 = tmp4 + tmp6;
      let z4 = tmp5 + tmp7;
      const z5 = (z3 + z4) * FIX_1_175875602;
      tmp4 *= FIX_0_298631336;
      tmp5 *= FIX_2_053119869;
      tmp6 *= FIX_3_072711026;
      tmp7 *= FIX_1_501321110;
      z1 *= -FIX_0_899976223;
      z2 *= -FIX_2_562915447;
      z3 *= -FIX_1_961570560;
      z4 *= -FIX_0_390180644;
      z3 += z5;
      z4 += z5;
      data[o + 7 * stride] = descale(tmp4 + z1 + z3, shiftOdd);
      data[o + 5 * stride] = descale(tmp5 + z2 + z4, shiftOdd);
      data[o + 3 * stride] = descale(tmp6 + z2 + z3, shiftOdd);
      data[o + stride] = descale(tmp7 + z1 + z4, shiftOdd);
    }
  }
}

/** libjpeg's quantiser: round half away from zero of coef / (8 · q). */
export function quantizeIslow(coef: number, q: number): number {
  const div = q << 3;
  if (coef < 0) return -Math.floor((-coef + (div >> 1)) / div);
  return Math.floor((coef + (div >> 1)) / div);
}

/** libjpeg's RGB → Y (jccolor.c, 16-bit fixed point). */
export function jpegLuma(r: number, g: number, b: number): number {
  return (19595 * r + 38470 * g + 7471 * b + 32768) >> 16;
}
