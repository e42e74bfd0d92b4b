// AES-GCM (NIST SP 800-38D) with a 128-bit tag through EVP_CIPHER.
// Linux and Android only (the Apple backend is CryptoKit): elsewhere this file is empty.
#if defined(__linux__)
#include "dc_openssl.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <string.h>

// The three AES-GCM ciphers, fetched from the default provider once (as digest.c does for the
// digests): a legacy EVP_aes_256_gcm() makes every EVP_EncryptInit_ex fetch the implementation
// again by name. Fetched objects are immutable and may be shared between threads.
static EVP_CIPHER *dc_fetched_gcm[3];
static CRYPTO_ONCE dc_gcm_once = CRYPTO_ONCE_STATIC_INIT;

static void dc_gcm_fetch(void) {
  dc_fetched_gcm[0] = EVP_CIPHER_fetch(NULL, "AES-128-GCM", NULL);
  dc_fetched_gcm[1] = EVP_CIPHER_fetch(NULL, "AES-192-GCM", NULL);
  dc_fetched_gcm[2] = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
}

static const EVP_CIPHER *dc_aes_gcm(size_t keylen) {
  if (!CRYPTO_THREAD_run_once(&dc_gcm_once, dc_gcm_fetch)) return NULL;
  switch (keylen) {
  case 16: return dc_fetched_gcm[0];
  case 24: return dc_fetched_gcm[1];
  case 32: return dc_fetched_gcm[2];
  default: return NULL;
  }
}

int dc_aes_gcm_seal(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                    const uint8_t *aad, size_t aadlen, const uint8_t *pt, size_t ptlen, uint8_t *ct,
                    uint8_t *tag) {
  const EVP_CIPHER *cipher = dc_aes_gcm(keylen);
  EVP_CIPHER_CTX *ctx = NULL;
  int len = 0, ok = 0;
  if (cipher == NULL || ivlen == 0 || ivlen > INT32_MAX || ptlen > INT32_MAX ||
      aadlen > INT32_MAX)
    return 0;
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

int dc_aes_gcm_open(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                    const uint8_t *aad, size_t aadlen, const uint8_t *ct, size_t ctlen,
                    const uint8_t *tag, uint8_t *pt) {
  const EVP_CIPHER *cipher = dc_aes_gcm(keylen);
  EVP_CIPHER_CTX *ctx = NULL;
  int len = 0, ok = 0;
  uint8_t tagcopy[16];
  if (cipher == NULL || ivlen == 0 || ivlen > INT32_MAX || ctlen > INT32_MAX ||
      aadlen > INT32_MAX)
    return 0;
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

int dc_aes256_ecb_encrypt(const uint8_t *key, const uint8_t *in, size_t len, uint8_t *out) {
  EVP_CIPHER_CTX *ctx = NULL;
  int outlen = 0, ok = 0;
  if (len == 0 || len % 16 != 0 || len > INT32_MAX) return 0;
  ctx = EVP_CIPHER_CTX_new();
  if (ctx == NULL) return 0;
  if (EVP_EncryptInit_ex(ctx, EVP_aes_256_ecb(), NULL, key, NULL) != 1) goto done;
  if (EVP_CIPHER_CTX_set_padding(ctx, 0) != 1) goto done;
  if (EVP_EncryptUpdate(ctx, out, &outlen, in, (int)len) != 1 || (size_t)outlen != len) goto done;
  ok = 1;
done:
  EVP_CIPHER_CTX_free(ctx);
  return ok;
}
#endif
