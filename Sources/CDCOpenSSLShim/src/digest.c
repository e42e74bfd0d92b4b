// Digests, HMAC, HKDF-Expand, the CSPRNG and the error queue.
// Linux and Android only (the Apple backend is CryptoKit): elsewhere this file is empty.
#if defined(__linux__)
#include "internal.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>

#include <string.h>

// The digests and the HKDF KDF, fetched from the default provider once: passing OpenSSL 3 a
// legacy EVP_sha256() makes every EVP_DigestInit fetch the implementation again by name (a
// locked table lookup), and EVP_KDF_fetch does the same. Fetched objects are immutable and
// may be shared between threads.
static EVP_MD *dc_fetched_mds[3];
static EVP_KDF *dc_fetched_hkdf;
// HMAC: OpenSSL 3's one-shot HMAC() fetches the HMAC implementation and the digest by name on
// every call. Instead, one HMAC context per digest is set up here (the implementation fetched,
// the digest chosen, keyed with the empty key) and never used itself: each call duplicates it
// and re-keys the copy. Duplicating only reads the template, so threads may share it.
static EVP_MAC *dc_fetched_hmac;
static EVP_MAC_CTX *dc_hmac_templates[3];
static CRYPTO_ONCE dc_fetch_once = CRYPTO_ONCE_STATIC_INIT;

static const uint8_t dc_empty_byte = 0;

static EVP_MAC_CTX *dc_hmac_template_new(DCDigest digest) {
  OSSL_PARAM params[2];
  EVP_MAC_CTX *ctx = NULL;
  const char *name = dc_md_name(digest);
  if (dc_fetched_hmac == NULL || name == NULL) return NULL;
  ctx = EVP_MAC_CTX_new(dc_fetched_hmac);
  if (ctx == NULL) return NULL;
  params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)name, 0);
  params[1] = OSSL_PARAM_construct_end();
  if (EVP_MAC_init(ctx, &dc_empty_byte, 0, params) != 1) {
    EVP_MAC_CTX_free(ctx);
    return NULL;
  }
  return ctx;
}

static void dc_fetch_init(void) {
  dc_fetched_mds[DCDigestSHA256] = EVP_MD_fetch(NULL, "SHA2-256", NULL);
  dc_fetched_mds[DCDigestSHA384] = EVP_MD_fetch(NULL, "SHA2-384", NULL);
  dc_fetched_mds[DCDigestSHA512] = EVP_MD_fetch(NULL, "SHA2-512", NULL);
  dc_fetched_hkdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
  dc_fetched_hmac = EVP_MAC_fetch(NULL, "HMAC", NULL);
  dc_hmac_templates[DCDigestSHA256] = dc_hmac_template_new(DCDigestSHA256);
  dc_hmac_templates[DCDigestSHA384] = dc_hmac_template_new(DCDigestSHA384);
  dc_hmac_templates[DCDigestSHA512] = dc_hmac_template_new(DCDigestSHA512);
  ERR_clear_error();
}

const EVP_MD *dc_md(DCDigest digest) {
  switch (digest) {
  case DCDigestSHA256:
  case DCDigestSHA384:
  case DCDigestSHA512:
    if (!CRYPTO_THREAD_run_once(&dc_fetch_once, dc_fetch_init)) return NULL;
    return dc_fetched_mds[digest];
  }
  return NULL;
}

static EVP_KDF *dc_hkdf(void) {
  if (!CRYPTO_THREAD_run_once(&dc_fetch_once, dc_fetch_init)) return NULL;
  return dc_fetched_hkdf;
}

const char *dc_md_name(DCDigest digest) {
  switch (digest) {
  case DCDigestSHA256: return "SHA256";
  case DCDigestSHA384: return "SHA384";
  case DCDigestSHA512: return "SHA512";
  }
  return NULL;
}

void dc_last_error(char *buf, size_t len) {
  unsigned long code = ERR_get_error();
  if (len > 0) buf[0] = 0;
  if (code != 0 && len > 0) ERR_error_string_n(code, buf, len);
  ERR_clear_error();
}

void dc_clear_errors(void) { ERR_clear_error(); }

int dc_digest(DCDigest digest, const uint8_t *data, size_t len, uint8_t *out) {
  const EVP_MD *md = dc_md(digest);
  unsigned int outlen = 0;
  if (md == NULL) return 0;
  return EVP_Digest(data, len, out, &outlen, md, NULL);
}

EVP_MD_CTX *dc_digest_new(DCDigest digest) {
  const EVP_MD *md = dc_md(digest);
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  if (md == NULL || ctx == NULL || EVP_DigestInit_ex(ctx, md, NULL) != 1) {
    EVP_MD_CTX_free(ctx);
    return NULL;
  }
  return ctx;
}

int dc_digest_update(EVP_MD_CTX *ctx, const uint8_t *data, size_t len) {
  return EVP_DigestUpdate(ctx, data, len);
}

int dc_digest_final(EVP_MD_CTX *ctx, uint8_t *out) {
  unsigned int outlen = 0;
  return EVP_DigestFinal_ex(ctx, out, &outlen);
}

void dc_digest_free(EVP_MD_CTX *ctx) { EVP_MD_CTX_free(ctx); }

int dc_digest_peek(const EVP_MD_CTX *ctx, uint8_t *out) {
  unsigned int outlen = 0;
  int ok = 0;
  EVP_MD_CTX *copy = EVP_MD_CTX_new();
  if (copy == NULL) return 0;
  if (EVP_MD_CTX_copy_ex(copy, ctx) == 1 && EVP_DigestFinal_ex(copy, out, &outlen) == 1) ok = 1;
  EVP_MD_CTX_free(copy);
  return ok;
}

EVP_MD_CTX *dc_digest_dup(const EVP_MD_CTX *ctx) {
  EVP_MD_CTX *copy = EVP_MD_CTX_new();
  if (copy == NULL) return NULL;
  if (EVP_MD_CTX_copy_ex(copy, ctx) != 1) {
    EVP_MD_CTX_free(copy);
    return NULL;
  }
  return copy;
}

int dc_hmac(DCDigest digest, const uint8_t *key, size_t keylen, const uint8_t *data, size_t len,
            uint8_t *out) {
  const EVP_MD *md = dc_md(digest);
  EVP_MAC_CTX *ctx = NULL;
  size_t outlen = 0, size = 0;
  unsigned int legacylen = 0;
  int ok = 0;
  if (md == NULL || keylen > INT32_MAX) return 0;
  size = (size_t)EVP_MD_get_size(md);
  // A NULL key means "reuse the previous key" to both APIs: always pass a real pointer.
  if (keylen == 0) key = &dc_empty_byte;
  if (len == 0) data = &dc_empty_byte;
  if (dc_hmac_templates[digest] == NULL) {
    // No template (its setup failed): the one-shot call, which fetches by name.
    return HMAC(md, key, (int)keylen, data, len, out, &legacylen) != NULL;
  }
  ctx = EVP_MAC_CTX_dup(dc_hmac_templates[digest]);
  if (ctx == NULL) return 0;
  ok = EVP_MAC_init(ctx, key, keylen, NULL) == 1 && EVP_MAC_update(ctx, data, len) == 1 &&
       EVP_MAC_final(ctx, out, &outlen, size) == 1 && outlen == size;
  EVP_MAC_CTX_free(ctx);
  return ok;
}

// HKDF-Expand through OpenSSL's HKDF KDF in expand-only mode: a new KDF context per call (OpenSSL
// 3.0 cannot duplicate an HKDF context). Used when the HMAC template could not be set up, and by
// the tests as the reference for dc_hkdf_expand.
int dc_hkdf_expand_kdf(DCDigest digest, const uint8_t *prk, size_t prklen, const uint8_t *info,
                       size_t infolen, uint8_t *out, size_t outlen) {
  static uint8_t empty[1] = {0};
  const char *mdname = dc_md_name(digest);
  EVP_KDF *kdf = NULL;
  EVP_KDF_CTX *ctx = NULL;
  OSSL_PARAM params[5];
  int n = 0, ok = 0;
  int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
  if (mdname == NULL) return 0;
  kdf = dc_hkdf();
  if (kdf == NULL) return 0;
  ctx = EVP_KDF_CTX_new(kdf);
  if (ctx == NULL) return 0;
  params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)mdname, 0);
  params[n++] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
  params[n++] = OSSL_PARAM_construct_octet_string(
      OSSL_KDF_PARAM_KEY, prklen > 0 ? (void *)prk : (void *)empty, prklen);
  if (infolen > 0)
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, infolen);
  params[n] = OSSL_PARAM_construct_end();
  ok = EVP_KDF_derive(ctx, out, outlen, params) == 1;
  EVP_KDF_CTX_free(ctx);
  return ok;
}

// HKDF-Expand is defined by HMAC (RFC 5869 §2.3):
//   N = ceil(L / HashLen), T(0) = empty, T(i) = HMAC-Hash(PRK, T(i-1) | info | i) for i = 1..N,
//   OKM = the first L octets of T(1) | ... | T(N).
// Each T(i) is computed with OpenSSL's HMAC on one copy of the per-digest template keyed with PRK
// once (later blocks re-initialise it with the same key, as OpenSSL's own HKDF does), which
// avoids creating an HKDF KDF context per call. The HMAC and the composition are OpenSSL's;
// only the block loop of §2.3 is written here.
int dc_hkdf_expand(DCDigest digest, const uint8_t *prk, size_t prklen, const uint8_t *info,
                   size_t infolen, uint8_t *out, size_t outlen) {
  const EVP_MD *md = dc_md(digest);
  EVP_MAC_CTX *ctx = NULL;
  uint8_t block[EVP_MAX_MD_SIZE];
  size_t size = 0, done = 0, blocklen = 0, take = 0;
  unsigned int i = 0;
  uint8_t counter = 0;
  int ok = 1;
  if (md == NULL || out == NULL) return 0;
  size = (size_t)EVP_MD_get_size(md);
  // §2.3: L <= 255 * HashLen; an empty output is not asked of OpenSSL either.
  if (size == 0 || size > sizeof(block) || outlen == 0 || outlen > 255 * size) return 0;
  if (dc_hmac_templates[digest] == NULL)
    return dc_hkdf_expand_kdf(digest, prk, prklen, info, infolen, out, outlen);
  // A NULL key would mean "reuse the previous key": always pass a real pointer.
  if (prklen == 0) prk = &dc_empty_byte;
  if (infolen == 0) info = &dc_empty_byte;
  ctx = EVP_MAC_CTX_dup(dc_hmac_templates[digest]);
  if (ctx == NULL) return 0;
  for (i = 1; ok && done < outlen; i++) {
    counter = (uint8_t)i;
    ok = EVP_MAC_init(ctx, i == 1 ? prk : NULL, i == 1 ? prklen : 0, NULL) == 1 &&
         (i == 1 || EVP_MAC_update(ctx, block, size) == 1) &&
         EVP_MAC_update(ctx, info, infolen) == 1 && EVP_MAC_update(ctx, &counter, 1) == 1 &&
         EVP_MAC_final(ctx, block, &blocklen, size) == 1 && blocklen == size;
    if (!ok) break;
    take = outlen - done < size ? outlen - done : size;
    memcpy(out + done, block, take);
    done += take;
  }
  OPENSSL_cleanse(block, sizeof(block));
  EVP_MAC_CTX_free(ctx);
  if (!ok) OPENSSL_cleanse(out, outlen);
  return ok;
}

int dc_random(uint8_t *out, size_t len) {
  if (len == 0) return 1;
  if (len > INT32_MAX) return 0;
  return RAND_bytes(out, (int)len);
}

#endif
