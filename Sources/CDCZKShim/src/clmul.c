// Carry-less multiplication for DCZK's GF(2^128) (see include/dc_zk.h).
#include "dc_zk.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define DC_ZK_X86 1
#endif

static uint64_t clmul64_portable(uint64_t a, uint64_t b, uint64_t *high) {
  uint64_t lo = 0, hi = 0;
  for (int i = 0; i < 64; i++) {
    uint64_t mask = (uint64_t)0 - ((b >> i) & 1);
    lo ^= (a << i) & mask;
    if (i > 0) hi ^= (a >> (64 - i)) & mask;
  }
  *high = hi;
  return lo;
}

// Reduces the 256-bit product (p3:p2:p1:p0) modulo x^128 + x^7 + x^2 + x + 1, folding with
// x^128 = x^7 + x^2 + x + 1 (0x87) twice: p3 * x^192 first, then p2 * x^128.
#define DC_ZK_REDUCE(CLMUL, p0, p1, p2, p3, out)                                              \
  do {                                                                                        \
    uint64_t th, tl = CLMUL(p3, 0x87, &th);                                                   \
    p1 ^= tl;                                                                                 \
    p2 ^= th;                                                                                 \
    uint64_t uh, ul = CLMUL(p2, 0x87, &uh);                                                   \
    out[0] = p0 ^ ul;                                                                         \
    out[1] = p1 ^ uh;                                                                         \
  } while (0)

static void gf128_mul_portable(const uint64_t *a, const uint64_t *b, uint64_t *out) {
  uint64_t h00, l00 = clmul64_portable(a[0], b[0], &h00);
  uint64_t h11, l11 = clmul64_portable(a[1], b[1], &h11);
  uint64_t hm, lm = clmul64_portable(a[0] ^ a[1], b[0] ^ b[1], &hm);
  lm ^= l00 ^ l11;
  hm ^= h00 ^ h11;
  uint64_t p0 = l00, p1 = h00 ^ lm, p2 = l11 ^ hm, p3 = h11;
  DC_ZK_REDUCE(clmul64_portable, p0, p1, p2, p3, out);
}

#if DC_ZK_X86
__attribute__((target("pclmul,sse2"))) static inline uint64_t clmul64_hw(
  uint64_t a, uint64_t b, uint64_t *high) {
  __m128i r = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)a),
                                   _mm_cvtsi64_si128((long long)b), 0x00);
  *high = (uint64_t)_mm_extract_epi64(r, 1);
  return (uint64_t)_mm_cvtsi128_si64(r);
}

__attribute__((target("pclmul,sse4.1"))) static inline void gf128_mul_hw(
  const uint64_t *a, const uint64_t *b, uint64_t *out) {
  __m128i x = _mm_loadu_si128((const __m128i *)a);
  __m128i y = _mm_loadu_si128((const __m128i *)b);
  __m128i lo = _mm_clmulepi64_si128(x, y, 0x00);
  __m128i hi = _mm_clmulepi64_si128(x, y, 0x11);
  __m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(x, y, 0x01), _mm_clmulepi64_si128(x, y, 0x10));
  lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
  hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
  // Fold hi (x^128 .. x^255) twice with 0x87.
  __m128i poly = _mm_cvtsi64_si128(0x87);
  __m128i t = _mm_clmulepi64_si128(hi, poly, 0x01);  // hi.high * 0x87, at x^64
  hi = _mm_xor_si128(hi, _mm_srli_si128(t, 8));
  lo = _mm_xor_si128(lo, _mm_slli_si128(t, 8));
  __m128i u = _mm_clmulepi64_si128(hi, poly, 0x00);  // hi.low * 0x87, at x^0
  lo = _mm_xor_si128(lo, u);
  _mm_storeu_si128((__m128i *)out, lo);
}

static int has_pclmul(void) {
  static int cached = -1;
  if (cached < 0) {
    __builtin_cpu_init();
    cached = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1") ? 1 : 0;
  }
  return cached;
}

#endif

uint64_t dc_zk_clmul64(uint64_t a, uint64_t b, uint64_t *high) {
#if DC_ZK_X86
  if (has_pclmul()) return clmul64_hw(a, b, high);
#endif
  return clmul64_portable(a, b, high);
}

void dc_zk_gf128_mul(const uint64_t *a, const uint64_t *b, uint64_t *out) {
#if DC_ZK_X86
  if (has_pclmul()) {
    gf128_mul_hw(a, b, out);
    return;
  }
#endif
  gf128_mul_portable(a, b, out);
}

#if DC_ZK_X86
__attribute__((target("pclmul,sse4.1"))) static uint64_t mul2_hw(uint64_t alo, uint64_t ahi,
                                                                  uint64_t blo, uint64_t bhi,
                                                                  uint64_t *high) {
  uint64_t a[2] = {alo, ahi}, b[2] = {blo, bhi}, out[2];
  gf128_mul_hw(a, b, out);
  *high = out[1];
  return out[0];
}
#endif

uint64_t dc_zk_gf128_mul2(uint64_t alo, uint64_t ahi, uint64_t blo, uint64_t bhi, uint64_t *high) {
#if DC_ZK_X86
  if (has_pclmul()) return mul2_hw(alo, ahi, blo, bhi, high);
#endif
  uint64_t a[2] = {alo, ahi}, b[2] = {blo, bhi}, out[2];
  gf128_mul_portable(a, b, out);
  *high = out[1];
  return out[0];
}

#if DC_ZK_X86
// The 256-bit carry-less product lo + mid * x^64 + hi * x^128, reduced as gf128_mul_hw does.
__attribute__((target("pclmul,sse4.1"))) static inline __m128i reduce_hw(__m128i lo, __m128i mid,
                                                                       __m128i hi) {
  lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
  hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
  __m128i poly = _mm_cvtsi64_si128(0x87);
  __m128i t = _mm_clmulepi64_si128(hi, poly, 0x01);
  hi = _mm_xor_si128(hi, _mm_srli_si128(t, 8));
  lo = _mm_xor_si128(lo, _mm_slli_si128(t, 8));
  return _mm_xor_si128(lo, _mm_clmulepi64_si128(hi, poly, 0x00));
}

__attribute__((target("pclmul,sse4.1"))) static inline __m128i mul_hw(__m128i x, __m128i y) {
  __m128i lo = _mm_clmulepi64_si128(x, y, 0x00);
  __m128i hi = _mm_clmulepi64_si128(x, y, 0x11);
  __m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(x, y, 0x01), _mm_clmulepi64_si128(x, y, 0x10));
  return reduce_hw(lo, mid, hi);
}

// Quads come grouped by g (the serialization delta-codes them in that order; a change of g
// merely starts a new group): per group, the products k * eql * eqr are summed unreduced and
// reduced once, then multiplied by eqg[g].
__attribute__((target("pclmul,sse4.1"))) static void quad_sum_hw(
  size_t n, const uint32_t *q, const uint64_t *k, const uint64_t *eqg, const uint64_t *eql,
  const uint64_t *eqr, uint64_t *out) {
  __m128i total = _mm_setzero_si128();
  size_t i = 0;
  while (i < n) {
    uint32_t g = q[4 * i];
    __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
    do {
      const uint32_t *quad = q + 4 * i;
      const uint64_t *kv = k + 2 * quad[3];
      __m128i a = _mm_loadu_si128((const __m128i *)(eql + 2 * quad[1]));
      if (kv[0] != 1 || kv[1] != 0) a = mul_hw(a, _mm_loadu_si128((const __m128i *)kv));
      __m128i b = _mm_loadu_si128((const __m128i *)(eqr + 2 * quad[2]));
      lo = _mm_xor_si128(lo, _mm_clmulepi64_si128(a, b, 0x00));
      hi = _mm_xor_si128(hi, _mm_clmulepi64_si128(a, b, 0x11));
      mid = _mm_xor_si128(mid, _mm_clmulepi64_si128(a, b, 0x01));
      mid = _mm_xor_si128(mid, _mm_clmulepi64_si128(a, b, 0x10));
      i++;
    } while (i < n && q[4 * i] == g);
    __m128i sum = reduce_hw(lo, mid, hi);
    total = _mm_xor_si128(total, mul_hw(sum, _mm_loadu_si128((const __m128i *)(eqg + 2 * g))));
  }
  _mm_storeu_si128((__m128i *)out, total);
}
#endif

void dc_zk_gf128_quad_sum(size_t n, const uint32_t *q, const uint64_t *k, const uint64_t *eqg,
                          const uint64_t *eql, const uint64_t *eqr, uint64_t *out) {
#if DC_ZK_X86
  if (has_pclmul()) {
    quad_sum_hw(n, q, k, eqg, eql, eqr, out);
    return;
  }
#endif
  uint64_t acc[2] = {0, 0}, t[2];
  for (size_t i = 0; i < n; i++) {
    const uint32_t *quad = q + 4 * i;
    gf128_mul_portable(k + 2 * quad[3], eqg + 2 * quad[0], t);
    gf128_mul_portable(t, eql + 2 * quad[1], t);
    gf128_mul_portable(t, eqr + 2 * quad[2], t);
    acc[0] ^= t[0];
    acc[1] ^= t[1];
  }
  out[0] = acc[0];
  out[1] = acc[1];
}

// The bulk loops, one body each: DC_ZK_LOOPS(SUFFIX, ATTR, MUL) defines them over the field
// product MUL(a, b, out) (2-limb elements; `out` may alias an operand), once with the hardware
// product (compiled for PCLMULQDQ) and once with the portable one; the entry points below
// choose at run time.
#define DC_ZK_LOOPS(SUFFIX, ATTR, MUL)                                                          \
  ATTR static void mul_vec_##SUFFIX(const uint64_t *a, const uint64_t *b, uint64_t *out,      \
                                    size_t count) {                                             \
    for (size_t i = 0; i < count; i++) MUL(a + 2 * i, b + 2 * i, out + 2 * i);                 \
  }                                                                                             \
  ATTR static void dot_##SUFFIX(const uint64_t *a, const uint64_t *b, size_t count,           \
                                uint64_t *out) {                                                \
    uint64_t acc[2] = {0, 0}, t[2];                                                             \
    for (size_t i = 0; i < count; i++) {                                                        \
      MUL(a + 2 * i, b + 2 * i, t);                                                             \
      acc[0] ^= t[0];                                                                           \
      acc[1] ^= t[1];                                                                           \
    }                                                                                           \
    out[0] = acc[0];                                                                            \
    out[1] = acc[1];                                                                            \
  }                                                                                             \
  ATTR static void bindeq_##SUFFIX(const uint64_t *r, size_t bits, uint64_t *out) {           \
    out[0] = 1;                                                                                 \
    out[1] = 0;                                                                                 \
    for (size_t b = 0; b < bits; b++) {                                                         \
      size_t half = (size_t)1 << b;                                                             \
      for (size_t x = 0; x < half; x++) {                                                       \
        uint64_t hi[2];                                                                         \
        MUL(out + 2 * x, r + 2 * b, hi);                                                        \
        out[2 * (x + half)] = hi[0];                                                            \
        out[2 * (x + half) + 1] = hi[1];                                                        \
        out[2 * x] ^= hi[0];                                                                    \
        out[2 * x + 1] ^= hi[1];                                                                \
      }                                                                                         \
    }                                                                                           \
  }                                                                                             \
  ATTR static void axpy_##SUFFIX(size_t n, uint64_t *y, const uint64_t *a, const uint64_t *x) { \
    uint64_t t[2];                                                                              \
    for (size_t i = 0; i < n; i++) {                                                            \
      MUL(a, x + 2 * i, t);                                                                     \
      y[2 * i] ^= t[0];                                                                         \
      y[2 * i + 1] ^= t[1];                                                                     \
    }                                                                                           \
  }                                                                                             \
  ATTR static void barycentric_##SUFFIX(const uint64_t *xs, size_t k, uint64_t *out) {        \
    for (size_t i = 0; i < k; i++) {                                                            \
      uint64_t acc[2] = {1, 0}, d[2];                                                           \
      for (size_t m = 0; m < k; m++) {                                                          \
        if (m == i) continue;                                                                   \
        d[0] = xs[2 * i] ^ xs[2 * m];                                                           \
        d[1] = xs[2 * i + 1] ^ xs[2 * m + 1];                                                   \
        MUL(acc, d, acc);                                                                       \
      }                                                                                         \
      out[2 * i] = acc[0];                                                                      \
      out[2 * i + 1] = acc[1];                                                                  \
    }                                                                                           \
  }

DC_ZK_LOOPS(portable, , gf128_mul_portable)
#if DC_ZK_X86
DC_ZK_LOOPS(hw, __attribute__((target("pclmul,sse4.1"))), gf128_mul_hw)
#define DC_ZK_DISPATCH(NAME, ...)          \
  do {                                     \
    if (has_pclmul()) {                    \
      NAME##_hw(__VA_ARGS__);              \
    } else {                               \
      NAME##_portable(__VA_ARGS__);        \
    }                                      \
  } while (0)
#else
#define DC_ZK_DISPATCH(NAME, ...) NAME##_portable(__VA_ARGS__)
#endif

void dc_zk_gf128_mul_vec(const uint64_t *a, const uint64_t *b, uint64_t *out, size_t count) {
  DC_ZK_DISPATCH(mul_vec, a, b, out, count);
}

void dc_zk_gf128_dot(const uint64_t *a, const uint64_t *b, size_t count, uint64_t *out) {
  DC_ZK_DISPATCH(dot, a, b, count, out);
}

void dc_zk_gf128_bindeq(const uint64_t *r, size_t bits, uint64_t *out) {
  DC_ZK_DISPATCH(bindeq, r, bits, out);
}

void dc_zk_gf128_axpy(size_t n, uint64_t *y, const uint64_t *a, const uint64_t *x) {
  DC_ZK_DISPATCH(axpy, n, y, a, x);
}

void dc_zk_gf128_barycentric_denominators(const uint64_t *xs, size_t k, uint64_t *out) {
  DC_ZK_DISPATCH(barycentric, xs, k, out);
}

int dc_zk_clmul_is_hardware(void) {
#if DC_ZK_X86
  return has_pclmul();
#else
  return 0;
#endif
}
