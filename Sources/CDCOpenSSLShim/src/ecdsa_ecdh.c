// ECDSA (FIPS 186-5) signing, verification and signature encodings; ECDH (SP 800-56A).
// Linux and Android only (the Apple backend is CryptoKit): elsewhere this file is empty.
#if defined(__linux__)
#include "internal.h"

#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <string.h>

int dc_ecdsa_sign(EVP_PKEY *pkey, DCDigest digest, const uint8_t *msg, size_t len, uint8_t *sig,
                  size_t *siglen) {
  const EVP_MD *md = dc_md(digest);
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  int ok = 0;
  if (ctx == NULL || md == NULL) goto done;
  if (EVP_DigestSignInit(ctx, NULL, md, NULL, pkey) != 1) goto done;
  ok = EVP_DigestSign(ctx, sig, siglen, msg, len) == 1;
done:
  EVP_MD_CTX_free(ctx);
  return ok;
}

int dc_ecdsa_verify(EVP_PKEY *pkey, DCDigest digest, const uint8_t *msg, size_t len,
                    const uint8_t *sig, size_t siglen) {
  const EVP_MD *md = dc_md(digest);
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

int dc_ecdsa_der_to_raw(const uint8_t *der, size_t len, uint8_t *out, size_t n) {
  const unsigned char *p = der;
  ECDSA_SIG *sig = NULL;
  unsigned char *reencoded = NULL;
  int relen, ok = 0;
  const BIGNUM *r = NULL, *s = NULL;
  if (len > INT32_MAX || n > INT32_MAX) return 0;
  sig = d2i_ECDSA_SIG(NULL, &p, (long)len);
  if (sig == NULL) goto done;
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

/// The peer is not re-validated here: every public key this library holds was checked on
/// import (on the curve, not the point at infinity), and P-256/384/521 have cofactor 1, so that
/// check is complete (SP 800-56A §5.6.2.3.4). OpenSSL's peer validation would add a full
/// scalar multiplication (n·Q) to every agreement.
int dc_ecdh(EVP_PKEY *priv, EVP_PKEY *peer, uint8_t *out, size_t *outlen) {
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
