// Thin C helpers over OpenSSL 3's EVP API for the CryptoPrimitives backend.
//
// Swift cannot call variadic C functions or use function-like macros, and building OSSL_PARAM
// arrays is clearer in C. Every helper returns 1 on success and 0 on failure (or a pointer/NULL),
// never aborts, and frees everything it allocates on every path. No cryptographic algorithm is
// implemented here: each helper only composes libcrypto calls.
#ifndef DC_COPENSSL_SHIM_H
#define DC_COPENSSL_SHIM_H

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <stdint.h>
#include <string.h>

// Digest selectors shared with Swift: 0 = SHA-256, 1 = SHA-384, 2 = SHA-512.
static inline const EVP_MD *dc_md(int which) {
  switch (which) {
  case 0: return EVP_sha256();
  case 1: return EVP_sha384();
  case 2: return EVP_sha512();
  default: return NULL;
  }
}

static inline const char *dc_md_name(int which) {
  switch (which) {
  case 0: return "SHA256";
  case 1: return "SHA384";
  case 2: return "SHA512";
  default: return NULL;
  }
}

// Curve selectors shared with Swift: 0 = P-256, 1 = P-384, 2 = P-521.
static inline int dc_curve_nid(int curve) {
  switch (curve) {
  case 0: return NID_X9_62_prime256v1;
  case 1: return NID_secp384r1;
  case 2: return NID_secp521r1;
  default: return NID_undef;
  }
}

static inline const char *dc_curve_group_name(int curve) {
  switch (curve) {
  case 0: return "prime256v1";
  case 1: return "secp384r1";
  case 2: return "secp521r1";
  default: return NULL;
  }
}

/// Copies the most recent OpenSSL error into buf and clears the error queue.
static inline void dc_last_error(char *buf, size_t len) {
  unsigned long code = ERR_get_error();
  if (len > 0) buf[0] = 0;
  if (code != 0) ERR_error_string_n(code, buf, len);
  ERR_clear_error();
}

static inline void dc_clear_errors(void) { ERR_clear_error(); }

// MARK: - Digests, HMAC, HKDF

static inline int dc_digest(int which, const uint8_t *data, size_t len, uint8_t *out) {
  const EVP_MD *md = dc_md(which);
  unsigned int outlen = 0;
  if (md == NULL) return 0;
  return EVP_Digest(data, len, out, &outlen, md, NULL);
}

/// Incremental digest, for hashing data that arrives in pieces.
static inline EVP_MD_CTX *dc_digest_new(int which) {
  const EVP_MD *md = dc_md(which);
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  if (md == NULL || ctx == NULL || EVP_DigestInit_ex(ctx, md, NULL) != 1) {
    EVP_MD_CTX_free(ctx);
    return NULL;
  }
  return ctx;
}

static inline int dc_digest_update(EVP_MD_CTX *ctx, const uint8_t *data, size_t len) {
  return EVP_DigestUpdate(ctx, data, len);
}

static inline int dc_digest_final(EVP_MD_CTX *ctx, uint8_t *out) {
  unsigned int outlen = 0;
  return EVP_DigestFinal_ex(ctx, out, &outlen);
}

static inline int dc_hmac(int which, const uint8_t *key, size_t keylen, const uint8_t *data,
                          size_t len, uint8_t *out) {
  const EVP_MD *md = dc_md(which);
  unsigned int outlen = 0;
  static const uint8_t empty = 0;
  if (md == NULL) return 0;
  // HMAC() treats a NULL key as "reuse the previous key": always pass a real pointer.
  return HMAC(md, keylen > 0 ? key : &empty, (int)keylen, len > 0 ? data : &empty, len, out,
              &outlen) != NULL;
}

/// RFC 5869 through OpenSSL's HKDF KDF. mode: 1 = extract only, 2 = expand only.
static inline int dc_hkdf(int which, int mode, const uint8_t *key, size_t keylen,
                          const uint8_t *salt, size_t saltlen, const uint8_t *info,
                          size_t infolen, uint8_t *out, size_t outlen) {
  static uint8_t empty[1] = {0};
  const char *mdname = dc_md_name(which);
  EVP_KDF *kdf = NULL;
  EVP_KDF_CTX *ctx = NULL;
  OSSL_PARAM params[6];
  int n = 0, ok = 0;
  int kdfmode = mode == 1 ? EVP_KDF_HKDF_MODE_EXTRACT_ONLY : EVP_KDF_HKDF_MODE_EXPAND_ONLY;
  if (mdname == NULL) return 0;
  kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
  if (kdf == NULL) return 0;
  ctx = EVP_KDF_CTX_new(kdf);
  EVP_KDF_free(kdf);
  if (ctx == NULL) return 0;
  params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)mdname, 0);
  params[n++] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &kdfmode);
  params[n++] = OSSL_PARAM_construct_octet_string(
      OSSL_KDF_PARAM_KEY, keylen > 0 ? (void *)key : (void *)empty, keylen);
  if (saltlen > 0)
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, saltlen);
  if (infolen > 0)
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, infolen);
  params[n] = OSSL_PARAM_construct_end();
  ok = EVP_KDF_derive(ctx, out, outlen, params) == 1;
  EVP_KDF_CTX_free(ctx);
  return ok;
}

static inline int dc_random(uint8_t *out, size_t len) {
  if (len == 0) return 1;
  return RAND_bytes(out, (int)len);
}

static inline int dc_memcmp(const uint8_t *a, const uint8_t *b, size_t len) {
  return CRYPTO_memcmp(a, b, len);
}

// MARK: - AES-GCM

static inline const EVP_CIPHER *dc_aes_gcm(size_t keylen) {
  switch (keylen) {
  case 16: return EVP_aes_128_gcm();
  case 24: return EVP_aes_192_gcm();
  case 32: return EVP_aes_256_gcm();
  default: return NULL;
  }
}

/// Seals plaintext; writes ptlen bytes of ciphertext and a 16-byte tag.
static inline int dc_aes_gcm_seal(const uint8_t *key, size_t keylen, const uint8_t *iv,
                                  size_t ivlen, const uint8_t *aad, size_t aadlen,
                                  const uint8_t *pt, size_t ptlen, uint8_t *ct, uint8_t *tag) {
  const EVP_CIPHER *cipher = dc_aes_gcm(keylen);
  EVP_CIPHER_CTX *ctx = NULL;
  int len = 0, ok = 0;
  if (cipher == NULL || ivlen == 0 || ptlen > INT32_MAX || aadlen > INT32_MAX) return 0;
  ctx = EVP_CIPHER_CTX_new();
  if (ctx == NULL) return 0;
  if (EVP_EncryptInit_ex(ctx, cipher, NULL, NULL, NULL) != 1) goto done;
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, (int)ivlen, NULL) != 1) goto done;
  if (EVP_EncryptInit_ex(ctx, NULL, NULL, key, iv) != 1) goto done;
  if (aadlen > 0 && EVP_EncryptUpdate(ctx, NULL, &len, aad, (int)aadlen) != 1) goto done;
  if (ptlen > 0 && EVP_EncryptUpdate(ctx, ct, &len, pt, (int)ptlen) != 1) goto done;
  if (EVP_EncryptFinal_ex(ctx, ct + (ptlen > 0 ? len : 0), &len) != 1) goto done;
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) != 1) goto done;
  ok = 1;
done:
  EVP_CIPHER_CTX_free(ctx);
  return ok;
}

/// Opens ciphertext; returns 1 and writes ctlen bytes of plaintext only when the tag verifies.
static inline int dc_aes_gcm_open(const uint8_t *key, size_t keylen, const uint8_t *iv,
                                  size_t ivlen, const uint8_t *aad, size_t aadlen,
                                  const uint8_t *ct, size_t ctlen, const uint8_t *tag,
                                  uint8_t *pt) {
  const EVP_CIPHER *cipher = dc_aes_gcm(keylen);
  EVP_CIPHER_CTX *ctx = NULL;
  int len = 0, ok = 0;
  uint8_t tagcopy[16];
  if (cipher == NULL || ivlen == 0 || ctlen > INT32_MAX || aadlen > INT32_MAX) return 0;
  memcpy(tagcopy, tag, 16);
  ctx = EVP_CIPHER_CTX_new();
  if (ctx == NULL) return 0;
  if (EVP_DecryptInit_ex(ctx, cipher, NULL, NULL, NULL) != 1) goto done;
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, (int)ivlen, NULL) != 1) goto done;
  if (EVP_DecryptInit_ex(ctx, NULL, NULL, key, iv) != 1) goto done;
  if (aadlen > 0 && EVP_DecryptUpdate(ctx, NULL, &len, aad, (int)aadlen) != 1) goto done;
  if (ctlen > 0 && EVP_DecryptUpdate(ctx, pt, &len, ct, (int)ctlen) != 1) goto done;
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, tagcopy) != 1) goto done;
  if (EVP_DecryptFinal_ex(ctx, pt + (ctlen > 0 ? len : 0), &len) != 1) goto done;
  ok = 1;
done:
  EVP_CIPHER_CTX_free(ctx);
  if (!ok && ctlen > 0) OPENSSL_cleanse(pt, ctlen);
  return ok;
}

// MARK: - EC keys

static inline EVP_PKEY *dc_ec_generate(int curve) {
  const char *group = dc_curve_group_name(curve);
  if (group == NULL) return NULL;
  return EVP_PKEY_Q_keygen(NULL, NULL, "EC", group);
}

static inline EVP_PKEY *dc_ec_build(int curve, const BIGNUM *priv, const uint8_t *pub,
                                    size_t publen) {
  const char *group = dc_curve_group_name(curve);
  OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
  OSSL_PARAM *params = NULL;
  EVP_PKEY_CTX *ctx = NULL;
  EVP_PKEY *pkey = NULL;
  if (bld == NULL || group == NULL) goto done;
  if (!OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0)) goto done;
  if (!OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, publen)) goto done;
  if (priv != NULL && !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, priv)) goto done;
  params = OSSL_PARAM_BLD_to_param(bld);
  if (params == NULL) goto done;
  ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
  if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1) goto done;
  if (EVP_PKEY_fromdata(ctx, &pkey, priv != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
                        params) != 1)
    pkey = NULL;
done:
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(bld);
  return pkey;
}

// The three groups, created once: EC_GROUP_new_by_curve_name is costly, and a group is only
// read after creation, which OpenSSL allows from several threads. The table is a function-local
// static because Swift's importer emits functions from this header, not file-scope variables.
static inline EC_GROUP **dc_group_table(void) {
  static EC_GROUP *groups[3];
  return groups;
}

// One key per curve whose only use is as a parameter template: copying its group into a new
// EVP_PKEY is several times faster than EVP_PKEY_fromdata, which rebuilds the group each time.
static inline EVP_PKEY **dc_template_table(void) {
  static EVP_PKEY *templates[3];
  return templates;
}

static inline void dc_groups_init(void) {
  EC_GROUP **groups = dc_group_table();
  EVP_PKEY **templates = dc_template_table();
  for (int i = 0; i < 3; i++) {
    groups[i] = EC_GROUP_new_by_curve_name(dc_curve_nid(i));
    templates[i] = EVP_PKEY_Q_keygen(NULL, NULL, "EC", dc_curve_group_name(i));
  }
}

static inline const EC_GROUP *dc_group(int curve) {
  static CRYPTO_ONCE once = CRYPTO_ONCE_STATIC_INIT;
  if (curve < 0 || curve > 2) return NULL;
  if (!CRYPTO_THREAD_run_once(&once, dc_groups_init)) return NULL;
  return dc_group_table()[curve];
}

/// Validates an encoded point (SEC1 uncompressed or compressed) on the curve and re-encodes it
/// uncompressed into out (2 * coordinate size + 1 bytes). Rejects the point at infinity.
static inline int dc_ec_point_normalize(int curve, const uint8_t *pt, size_t len, uint8_t *out,
                                        size_t outcap, size_t *outlen) {
  const EC_GROUP *group = dc_group(curve);
  EC_POINT *point = NULL;
  int ok = 0;
  if (group == NULL || len == 0) goto done;
  point = EC_POINT_new(group);
  if (point == NULL) goto done;
  // EC_POINT_oct2point checks that the point satisfies the curve equation.
  if (EC_POINT_oct2point(group, point, pt, len, NULL) != 1) goto done;
  if (EC_POINT_is_at_infinity(group, point)) goto done;
  if (EC_POINT_is_on_curve(group, point, NULL) != 1) goto done;
  *outlen = EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, out, outcap, NULL);
  ok = *outlen > 0;
done:
  EC_POINT_free(point);
  return ok;
}

/// Imports a validated public point; writes its uncompressed encoding to `normalized` (133
/// bytes of room), so callers need not ask the key for it again (that costs a field inversion).
static inline EVP_PKEY *dc_ec_from_public(int curve, const uint8_t *pt, size_t len,
                                          uint8_t *normalized, size_t *normlen_out) {
  size_t normlen = 0;
  size_t coordinate = curve == 0 ? 32 : curve == 1 ? 48 : 66;
  EVP_PKEY *template = NULL, *pkey = NULL;
  if (len == 1 + 2 * coordinate && pt[0] == 0x04) {
    // Already uncompressed: setting it below decodes it with EC_POINT_oct2point, which refuses
    // a point off the curve; the 0x04 form cannot encode the point at infinity.
    memcpy(normalized, pt, len);
    normlen = len;
  } else if (!dc_ec_point_normalize(curve, pt, len, normalized, 133, &normlen)) {
    return NULL;
  }
  *normlen_out = normlen;
  if (dc_group(curve) == NULL || (template = dc_template_table()[curve]) == NULL) return NULL;
  pkey = EVP_PKEY_new();
  if (pkey == NULL) return NULL;
  // The point was validated above; setting it decodes and checks it once more.
  if (EVP_PKEY_copy_parameters(pkey, template) != 1 ||
      EVP_PKEY_set1_encoded_public_key(pkey, normalized, normlen) != 1) {
    EVP_PKEY_free(pkey);
    return NULL;
  }
  return pkey;
}

/// Imports a private scalar (big-endian); requires 0 < d < n and derives the public point.
static inline EVP_PKEY *dc_ec_from_private(int curve, const uint8_t *priv, size_t len) {
  const EC_GROUP *group = dc_group(curve);
  BIGNUM *d = NULL;
  EC_POINT *q = NULL;
  EVP_PKEY *pkey = NULL;
  uint8_t pub[133];
  size_t publen = 0;
  if (group == NULL) goto done;
  d = BN_bin2bn(priv, (int)len, NULL);
  if (d == NULL || BN_is_zero(d) || BN_cmp(d, EC_GROUP_get0_order(group)) >= 0) goto done;
  q = EC_POINT_new(group);
  if (q == NULL || EC_POINT_mul(group, q, d, NULL, NULL, NULL) != 1) goto done;
  publen = EC_POINT_point2oct(group, q, POINT_CONVERSION_UNCOMPRESSED, pub, sizeof pub, NULL);
  if (publen == 0) goto done;
  pkey = dc_ec_build(curve, d, pub, publen);
done:
  EC_POINT_free(q);
  BN_clear_free(d);
  return pkey;
}

/// Which of our curves a key is on: 0, 1, 2, or -1 when it is not an EC key on one of them.
static inline int dc_ec_curve_of(const EVP_PKEY *pkey) {
  char name[64];
  size_t len = 0;
  if (EVP_PKEY_get_base_id(pkey) != EVP_PKEY_EC) return -1;
  if (EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME, name, sizeof name, &len) != 1)
    return -1;
  if (strcmp(name, "prime256v1") == 0 || strcmp(name, "P-256") == 0) return 0;
  if (strcmp(name, "secp384r1") == 0 || strcmp(name, "P-384") == 0) return 1;
  if (strcmp(name, "secp521r1") == 0 || strcmp(name, "P-521") == 0) return 2;
  return -1;
}

/// The uncompressed public point of a key.
static inline int dc_ec_public_bytes(const EVP_PKEY *pkey, uint8_t *out, size_t cap,
                                     size_t *outlen) {
  return EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out, cap,
                                         outlen);
}

static inline int dc_ec_private_bytes(const EVP_PKEY *pkey, uint8_t *out, size_t len) {
  BIGNUM *d = NULL;
  int ok = 0;
  if (EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, &d) != 1) return 0;
  ok = BN_bn2binpad(d, out, (int)len) == (int)len;
  BN_clear_free(d);
  return ok;
}

/// SEC1 ECPrivateKey or PKCS#8 PrivateKeyInfo DER; trailing bytes are refused.
static inline EVP_PKEY *dc_pkey_from_private_der(const uint8_t *der, size_t len) {
  const unsigned char *p = der;
  EVP_PKEY *pkey = d2i_AutoPrivateKey(NULL, &p, (long)len);
  if (pkey != NULL && p != der + len) {
    EVP_PKEY_free(pkey);
    return NULL;
  }
  return pkey;
}

/// SubjectPublicKeyInfo DER; trailing bytes are refused, and so are explicit curve parameters
/// (RFC 5480 §2.1.1: PKIX keys name their curve by OID).
static inline EVP_PKEY *dc_pkey_from_spki(const uint8_t *der, size_t len) {
  const unsigned char *p = der;
  X509_PUBKEY *spki = d2i_X509_PUBKEY(NULL, &p, (long)len);
  X509_ALGOR *alg = NULL;
  const void *pval = NULL;
  int ptype = 0;
  EVP_PKEY *pkey = NULL;
  if (spki == NULL) return NULL;
  if (p != der + len) goto done;
  if (X509_PUBKEY_get0_param(NULL, NULL, NULL, &alg, spki) != 1 || alg == NULL) goto done;
  X509_ALGOR_get0(NULL, &ptype, &pval, alg);
  if (ptype != V_ASN1_OBJECT) goto done;
  pkey = X509_PUBKEY_get(spki);
done:
  X509_PUBKEY_free(spki);
  return pkey;
}

/// DER encodings: kind 0 = SubjectPublicKeyInfo, 1 = PKCS#8 PrivateKeyInfo.
/// Call with out = NULL to learn the length.
static inline int dc_pkey_to_der(EVP_PKEY *pkey, int kind, uint8_t *out) {
  if (kind == 0) {
    unsigned char *p = out;
    return i2d_PUBKEY(pkey, out != NULL ? &p : NULL);
  } else {
    PKCS8_PRIV_KEY_INFO *p8 = EVP_PKEY2PKCS8(pkey);
    unsigned char *p = out;
    int len;
    if (p8 == NULL) return -1;
    len = i2d_PKCS8_PRIV_KEY_INFO(p8, out != NULL ? &p : NULL);
    PKCS8_PRIV_KEY_INFO_free(p8);
    return len;
  }
}

// MARK: - ECDSA and ECDH

/// Signs message with the given digest; writes the DER signature (at most 141 bytes for P-521).
static inline int dc_ecdsa_sign(EVP_PKEY *pkey, int which, const uint8_t *msg, size_t len,
                                uint8_t *sig, size_t *siglen) {
  const EVP_MD *md = dc_md(which);
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  int ok = 0;
  if (ctx == NULL || md == NULL) goto done;
  if (EVP_DigestSignInit(ctx, NULL, md, NULL, pkey) != 1) goto done;
  ok = EVP_DigestSign(ctx, sig, siglen, msg, len) == 1;
done:
  EVP_MD_CTX_free(ctx);
  return ok;
}

/// 1 when the DER signature is valid, 0 otherwise (including malformed or non-DER encodings).
static inline int dc_ecdsa_verify(EVP_PKEY *pkey, int which, const uint8_t *msg, size_t len,
                                  const uint8_t *sig, size_t siglen) {
  const EVP_MD *md = dc_md(which);
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  int ok = 0;
  if (ctx == NULL || md == NULL) goto done;
  if (EVP_DigestVerifyInit(ctx, NULL, md, NULL, pkey) != 1) goto done;
  ok = EVP_DigestVerify(ctx, sig, siglen, msg, len) == 1;
done:
  EVP_MD_CTX_free(ctx);
  ERR_clear_error();
  return ok;
}

/// Strict DER ECDSA-Sig-Value -> r || s, each left-padded to n bytes. Rejects BER, trailing
/// bytes and values longer than n bytes.
static inline int dc_ecdsa_der_to_raw(const uint8_t *der, size_t len, uint8_t *out, size_t n) {
  const unsigned char *p = der;
  ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &p, (long)len);
  unsigned char *reencoded = NULL;
  int relen, ok = 0;
  const BIGNUM *r = NULL, *s = NULL;
  if (sig == NULL) return 0;
  if (p != der + len) goto done;
  relen = i2d_ECDSA_SIG(sig, &reencoded);
  if (relen != (int)len || memcmp(reencoded, der, len) != 0) goto done;
  ECDSA_SIG_get0(sig, &r, &s);
  if (BN_is_negative(r) || BN_is_negative(s)) goto done;
  if (BN_bn2binpad(r, out, (int)n) != (int)n) goto done;
  if (BN_bn2binpad(s, out + n, (int)n) != (int)n) goto done;
  ok = 1;
done:
  OPENSSL_free(reencoded);
  ECDSA_SIG_free(sig);
  ERR_clear_error();
  return ok;
}

/// r || s (n bytes each) -> DER. Returns the DER length, or -1. out must hold 2n + 9 bytes.
static inline int dc_ecdsa_raw_to_der(const uint8_t *raw, size_t n, uint8_t *out) {
  ECDSA_SIG *sig = ECDSA_SIG_new();
  BIGNUM *r = BN_bin2bn(raw, (int)n, NULL);
  BIGNUM *s = BN_bin2bn(raw + n, (int)n, NULL);
  unsigned char *p = out;
  int len = -1;
  if (sig == NULL || r == NULL || s == NULL) goto fail;
  if (ECDSA_SIG_set0(sig, r, s) != 1) goto fail;
  len = i2d_ECDSA_SIG(sig, &p);
  ECDSA_SIG_free(sig);
  return len;
fail:
  BN_free(r);
  BN_free(s);
  ECDSA_SIG_free(sig);
  return -1;
}

/// ECDH: writes the x coordinate of d * Q (the curve's coordinate size).
///
/// The peer is not re-validated here: every public key this library holds was checked on
/// import (on the curve, not the point at infinity), and P-256/384/521 have cofactor 1, so that
/// check is complete (SP 800-56A §5.6.2.3.4). OpenSSL's peer validation would add a full
/// scalar multiplication (n·Q) to every agreement.
static inline int dc_ecdh(EVP_PKEY *priv, EVP_PKEY *peer, uint8_t *out, size_t *outlen) {
  EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(priv, NULL);
  int ok = 0;
  if (ctx == NULL) return 0;
  if (EVP_PKEY_derive_init(ctx) != 1) goto done;
  if (EVP_PKEY_derive_set_peer_ex(ctx, peer, 0) != 1) goto done;
  ok = EVP_PKEY_derive(ctx, out, outlen) == 1;
done:
  EVP_PKEY_CTX_free(ctx);
  return ok;
}

#endif
