// Thin C helpers over OpenSSL 3's EVP API for the CryptoPrimitives Linux backend
// (`Backend_openssl.swift`). Declarations only; the bodies are in `src/*.c`.
//
// Swift cannot call variadic C functions or use function-like macros, and building OSSL_PARAM
// arrays is clearer in C. Every helper returns 1 on success and 0 on failure (or a pointer or
// NULL), never aborts, and frees everything it allocates on every path. No cryptographic
// algorithm is implemented here: each helper only composes libcrypto calls. Key and signature
// encodings (SubjectPublicKeyInfo, PKCS#8, DER ECDSA-Sig-Value) are written in shared Swift, so
// both backends produce the same bytes.
//
// OpenSSL types appear as incomplete structs, so Swift sees opaque pointers and needs no
// OpenSSL header of its own.
#ifndef DC_OPENSSL_SHIM_H
#define DC_OPENSSL_SHIM_H

#include <stddef.h>
#include <stdint.h>

struct evp_pkey_st;
struct evp_md_ctx_st;

/// The SHA-2 digests (FIPS 180-4) the library uses.
typedef enum DCDigest {
  DCDigestSHA256 = 0,
  DCDigestSHA384 = 1,
  DCDigestSHA512 = 2,
} DCDigest;

/// The NIST curves (FIPS 186-5, SEC 2) the library uses.
typedef enum DCCurve {
  DCCurveP256 = 0,
  DCCurveP384 = 1,
  DCCurveP521 = 2,
} DCCurve;

// MARK: - Errors

/// Copies the most recent OpenSSL error into buf (NUL-terminated) and clears the error queue.
void dc_last_error(char *buf, size_t len);
/// Clears OpenSSL's thread-local error queue.
void dc_clear_errors(void);

// MARK: - Digests, HMAC, HKDF, random

/// One-shot digest; out holds the digest length.
int dc_digest(DCDigest digest, const uint8_t *data, size_t len, uint8_t *out);
/// Incremental digest, for data that arrives in pieces; NULL on allocation failure.
struct evp_md_ctx_st *dc_digest_new(DCDigest digest);
int dc_digest_update(struct evp_md_ctx_st *ctx, const uint8_t *data, size_t len);
int dc_digest_final(struct evp_md_ctx_st *ctx, uint8_t *out);
void dc_digest_free(struct evp_md_ctx_st *ctx);
/// The digest of what ctx has been fed so far, leaving ctx as it is (it may be fed more).
int dc_digest_peek(const struct evp_md_ctx_st *ctx, uint8_t *out);
/// A new context in the state of ctx (fed the same data); NULL on allocation failure.
struct evp_md_ctx_st *dc_digest_dup(const struct evp_md_ctx_st *ctx);

/// HMAC (RFC 2104); out holds the digest length.
int dc_hmac(DCDigest digest, const uint8_t *key, size_t keylen, const uint8_t *data, size_t len,
            uint8_t *out);
/// HKDF-Expand (RFC 5869 §2.3): the T(i) blocks by OpenSSL's HMAC on a copy of the per-digest
/// HMAC template keyed once with PRK. Fails for outlen 0 or above 255 × HashLen.
int dc_hkdf_expand(DCDigest digest, const uint8_t *prk, size_t prklen, const uint8_t *info,
                   size_t infolen, uint8_t *out, size_t outlen);
/// HKDF-Expand through OpenSSL's HKDF KDF in expand-only mode (a new KDF context per call): the
/// fallback of dc_hkdf_expand and the reference its tests compare with.
int dc_hkdf_expand_kdf(DCDigest digest, const uint8_t *prk, size_t prklen, const uint8_t *info,
                       size_t infolen, uint8_t *out, size_t outlen);
/// Bytes from OpenSSL's CSPRNG.
int dc_random(uint8_t *out, size_t len);

// MARK: - AES-GCM (SP 800-38D)

/// Seals plaintext with a 16, 24 or 32-byte key; writes ptlen bytes of ciphertext and a 16-byte tag.
int dc_aes_gcm_seal(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                    const uint8_t *aad, size_t aadlen, const uint8_t *pt, size_t ptlen, uint8_t *ct,
                    uint8_t *tag);
/// Opens ciphertext; returns 1 and writes ctlen bytes of plaintext only when the tag verifies.
int dc_aes_gcm_open(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                    const uint8_t *aad, size_t aadlen, const uint8_t *ct, size_t ctlen,
                    const uint8_t *tag, uint8_t *pt);

/// AES-256 (FIPS 197) of each 16-byte block of `in` (len a non-zero multiple of 16) under a
/// 32-byte key, no chaining and no padding: the block function itself, for a keystream whose
/// counter layout a protocol fixes (Longfellow's Fiat–Shamir PRF).
int dc_aes256_ecb_encrypt(const uint8_t *key, const uint8_t *in, size_t len, uint8_t *out);

// MARK: - EC keys

/// A new random key pair on curve.
struct evp_pkey_st *dc_ec_generate(DCCurve curve);
/// Imports a SEC1 point (uncompressed or compressed), checked on the curve and not the point at
/// infinity; writes its uncompressed encoding to normalized (cap bytes of room, at least
/// 1 + 2 * coordinate size), so callers need not ask the key for it again.
struct evp_pkey_st *dc_ec_from_public(DCCurve curve, const uint8_t *pt, size_t len,
                                      uint8_t *normalized, size_t cap, size_t *normlen);
/// Releases a key made by dc_ec_from_public on curve, of which the caller holds the only
/// reference: it is freed, or kept for a later dc_ec_from_public to set a new point on.
void dc_ec_public_release(DCCurve curve, struct evp_pkey_st *pkey);
/// Imports a private scalar (big-endian); requires 0 < d < n and derives the public point.
struct evp_pkey_st *dc_ec_from_private(DCCurve curve, const uint8_t *priv, size_t len);
/// Reads SEC1 ECPrivateKey or PKCS#8 PrivateKeyInfo DER; trailing bytes are refused.
struct evp_pkey_st *dc_pkey_from_private_der(const uint8_t *der, size_t len);
/// Which of the library's curves an EC key is on; 0 when it is not an EC key on one of them.
int dc_ec_curve_of(const struct evp_pkey_st *pkey, DCCurve *curve);
/// The uncompressed public point of a key; outlen receives its length.
int dc_ec_public_bytes(const struct evp_pkey_st *pkey, uint8_t *out, size_t cap, size_t *outlen);
/// The private scalar, big-endian, left-padded to len bytes.
int dc_ec_private_bytes(const struct evp_pkey_st *pkey, uint8_t *out, size_t len);
/// One more reference to pkey, released by dc_pkey_free.
int dc_pkey_up_ref(struct evp_pkey_st *pkey);
void dc_pkey_free(struct evp_pkey_st *pkey);

// MARK: - ECDSA and ECDH

/// Signs message with the given digest; writes the DER signature (at most 2n + 9 bytes).
int dc_ecdsa_sign(struct evp_pkey_st *pkey, DCDigest digest, const uint8_t *msg, size_t len,
                  uint8_t *sig, size_t *siglen);
/// 1 when the DER signature is valid, 0 otherwise (including malformed or non-DER encodings).
int dc_ecdsa_verify(struct evp_pkey_st *pkey, DCDigest digest, const uint8_t *msg, size_t len,
                    const uint8_t *sig, size_t siglen);
/// Strict DER ECDSA-Sig-Value -> r || s, each left-padded to n bytes. Rejects BER, trailing
/// bytes and values longer than n bytes.
int dc_ecdsa_der_to_raw(const uint8_t *der, size_t len, uint8_t *out, size_t n);
/// ECDH: writes the x coordinate of d * Q (the curve's coordinate size).
int dc_ecdh(struct evp_pkey_st *priv, struct evp_pkey_st *peer, uint8_t *out, size_t *outlen);

#endif
