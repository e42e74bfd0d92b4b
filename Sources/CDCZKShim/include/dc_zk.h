// Carry-less multiplication for GF(2^128) in DCZK (draft-google-cfrg-libzk, "Fields").
//
// Swift has no carry-less multiply. These helpers use the CPU's instruction when it has one
// (x86-64 PCLMULQDQ, chosen at run time) and a portable loop otherwise. No
// cryptographic algorithm lives here: only the 64 x 64 -> 128-bit polynomial product and the
// field product built from it, reduced modulo x^128 + x^7 + x^2 + x + 1.
#ifndef DC_ZK_SHIM_H
#define DC_ZK_SHIM_H

#include <stddef.h>
#include <stdint.h>

/// The carry-less product of `a` and `b`: the low 64 bits are returned, the high 64 in `*high`.
uint64_t dc_zk_clmul64(uint64_t a, uint64_t b, uint64_t *high);

/// out = a * b in GF(2^128) = GF(2)[x] / (x^128 + x^7 + x^2 + x + 1); each element is two
/// 64-bit limbs, low limb first (bit i of the element is the coefficient of x^i). `out` may
/// alias `a` or `b`.
void dc_zk_gf128_mul(const uint64_t *a, const uint64_t *b, uint64_t *out);

/// a * b in GF(2^128) on values (low limb returned, high limb in `*high`): Swift keeps the
/// operands in registers.
uint64_t dc_zk_gf128_mul2(uint64_t alo, uint64_t ahi, uint64_t blo, uint64_t bhi, uint64_t *high);

/// For i in 0..<count: out[i] = a[i] * b[i] (each a 2-limb element as above).
void dc_zk_gf128_mul_vec(const uint64_t *a, const uint64_t *b, uint64_t *out, size_t count);

/// Returns the sum over i in 0..<count of a[i] * b[i] into out (a dot product).
void dc_zk_gf128_dot(const uint64_t *a, const uint64_t *b, size_t count, uint64_t *out);

/// out = sum over quads i in 0..<n of k[v] * eqg[g] * eql[h0] * eqr[h1], where quad i is
/// (g, h0, h1, v) = q[4i ..< 4i + 4] (2-limb elements): a sumcheck layer's quad bound at its
/// challenges. The caller guarantees every index is in range.
void dc_zk_gf128_quad_sum(size_t n, const uint32_t *q, const uint64_t *k, const uint64_t *eqg,
                          const uint64_t *eql, const uint64_t *eqr, uint64_t *out);

/// The EQ table of `bits` challenges r[0..bits): out[x] for x in 0..<2^bits is the product over
/// b of (bit b of x ? r[b] : 1 - r[b]) (the draft's `bindeq`). `out` holds 2^bits elements.
void dc_zk_gf128_bindeq(const uint64_t *r, size_t bits, uint64_t *out);

/// y[i] += a * x[i] for i in 0..<n.
void dc_zk_gf128_axpy(size_t n, uint64_t *y, const uint64_t *a, const uint64_t *x);

/// out[i] = product over m != i of (xs[i] + xs[m]) for i in 0..<k: the denominators of the
/// barycentric weights of the points xs.
void dc_zk_gf128_barycentric_denominators(const uint64_t *xs, size_t k, uint64_t *out);

/// 1 when the hardware instruction is used, 0 for the portable loop (for tests and benchmarks).
int dc_zk_clmul_is_hardware(void);

#endif
