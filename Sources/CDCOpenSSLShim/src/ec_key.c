// EC key generation, import and export on P-256, P-384 and P-521.
// Linux and Android only (the Apple backend is CryptoKit): elsewhere this file is empty.
#if defined(__linux__)
#include "dc_openssl.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <string.h>

#define DC_CURVE_COUNT 3

static int dc_curve_valid(DCCurve curve) {
  return curve == DCCurveP256 || curve == DCCurveP384 || curve == DCCurveP521;
}

static int dc_curve_nid(DCCurve curve) {
  switch (curve) {
  case DCCurveP256: return NID_X9_62_prime256v1;
  case DCCurveP384: return NID_secp384r1;
  case DCCurveP521: return NID_secp521r1;
  }
  return NID_undef;
}

static const char *dc_curve_group_name(DCCurve curve) {
  switch (curve) {
  case DCCurveP256: return "prime256v1";
  case DCCurveP384: return "secp384r1";
  case DCCurveP521: return "secp521r1";
  }
  return NULL;
}

static size_t dc_curve_coordinate_size(DCCurve curve) {
  switch (curve) {
  case DCCurveP256: return 32;
  case DCCurveP384: return 48;
  case DCCurveP521: return 66;
  }
  return 0;
}

// The three groups, created once: EC_GROUP_new_by_curve_name is costly, and a group is only
// read after creation, which OpenSSL allows from several threads.
static EC_GROUP *dc_groups[DC_CURVE_COUNT];
// One key per curve whose only use is as a parameter template: copying its group into a new
// EVP_PKEY is several times faster than EVP_PKEY_fromdata, which rebuilds the group each time.
static EVP_PKEY *dc_templates[DC_CURVE_COUNT];
static CRYPTO_ONCE dc_groups_once = CRYPTO_ONCE_STATIC_INIT;

// Public-key EVP_PKEYs released by their only owner (dc_ec_public_release), kept for the next
// import on the same curve. Making an EVP_PKEY costs several times more than setting a point
// on one (OpenSSL 3.0 looks the key type up through its whole name map for each new key);
// setting the point replaces the key's whole content, so nothing of the earlier key is kept.
// Guarded by dc_pool_lock; without the lock (allocation failure) nothing is pooled.
#define DC_POOL_SIZE 8
static EVP_PKEY *dc_pool[DC_CURVE_COUNT][DC_POOL_SIZE];
static int dc_pool_count[DC_CURVE_COUNT];
static CRYPTO_RWLOCK *dc_pool_lock;

static void dc_groups_init(void) {
  for (int i = 0; i < DC_CURVE_COUNT; i++) {
    dc_groups[i] = EC_GROUP_new_by_curve_name(dc_curve_nid((DCCurve)i));
    dc_templates[i] = EVP_PKEY_Q_keygen(NULL, NULL, "EC", dc_curve_group_name((DCCurve)i));
  }
  dc_pool_lock = CRYPTO_THREAD_lock_new();
}

static const EC_GROUP *dc_group(DCCurve curve) {
  if (!dc_curve_valid(curve)) return NULL;
  if (!CRYPTO_THREAD_run_once(&dc_groups_once, dc_groups_init)) return NULL;
  return dc_groups[curve];
}

static EVP_PKEY *dc_template(DCCurve curve) {
  if (dc_group(curve) == NULL) return NULL;
  return dc_templates[curve];
}

EVP_PKEY *dc_ec_generate(DCCurve curve) {
  const char *group = dc_curve_group_name(curve);
  if (group == NULL) return NULL;
  return EVP_PKEY_Q_keygen(NULL, NULL, "EC", group);
}

static EVP_PKEY *dc_ec_build(DCCurve curve, const BIGNUM *priv, const uint8_t *pub,
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

/// Validates an encoded point (SEC1 uncompressed or compressed) on the curve and re-encodes it
/// uncompressed into out. Rejects the point at infinity.
static int dc_ec_point_normalize(DCCurve curve, const uint8_t *pt, size_t len, uint8_t *out,
                                 size_t cap, size_t *outlen) {
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
  *outlen = EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, out, cap, NULL);
  ok = *outlen > 0;
done:
  EC_POINT_free(point);
  return ok;
}

/// A pooled public key on curve, or NULL when there is none.
static EVP_PKEY *dc_pool_take(DCCurve curve) {
  EVP_PKEY *pkey = NULL;
  if (dc_pool_lock == NULL || !CRYPTO_THREAD_write_lock(dc_pool_lock)) return NULL;
  if (dc_pool_count[curve] > 0) pkey = dc_pool[curve][--dc_pool_count[curve]];
  CRYPTO_THREAD_unlock(dc_pool_lock);
  return pkey;
}

EVP_PKEY *dc_ec_from_public(DCCurve curve, const uint8_t *pt, size_t len, uint8_t *normalized,
                            size_t cap, size_t *normlen) {
  size_t coordinate = dc_curve_coordinate_size(curve);
  size_t length = 0;
  EVP_PKEY *template = dc_template(curve), *pkey = NULL;
  if (template == NULL || cap < 1 + 2 * coordinate) return NULL;
  if (len == 1 + 2 * coordinate && pt[0] == 0x04) {
    // Already uncompressed: setting it below decodes it with EC_POINT_oct2point, which refuses
    // a point off the curve; the 0x04 form cannot encode the point at infinity.
    memcpy(normalized, pt, len);
    length = len;
  } else if (!dc_ec_point_normalize(curve, pt, len, normalized, cap, &length)) {
    return NULL;
  }
  pkey = dc_pool_take(curve);
  if (pkey == NULL) {
    pkey = EVP_PKEY_new();
    if (pkey == NULL) return NULL;
    if (EVP_PKEY_copy_parameters(pkey, template) != 1) {
      EVP_PKEY_free(pkey);
      return NULL;
    }
  }
  // A refused point may leave the key half-set: such a key is freed, never pooled.
  if (EVP_PKEY_set1_encoded_public_key(pkey, normalized, length) != 1) {
    EVP_PKEY_free(pkey);
    return NULL;
  }
  *normlen = length;
  return pkey;
}

void dc_ec_public_release(DCCurve curve, EVP_PKEY *pkey) {
  int pooled = 0;
  if (pkey == NULL) return;
  if (dc_curve_valid(curve) && dc_pool_lock != NULL && CRYPTO_THREAD_write_lock(dc_pool_lock)) {
    if (dc_pool_count[curve] < DC_POOL_SIZE) {
      dc_pool[curve][dc_pool_count[curve]++] = pkey;
      pooled = 1;
    }
    CRYPTO_THREAD_unlock(dc_pool_lock);
  }
  if (!pooled) EVP_PKEY_free(pkey);
}

EVP_PKEY *dc_ec_from_private(DCCurve curve, const uint8_t *priv, size_t len) {
  const EC_GROUP *group = dc_group(curve);
  BIGNUM *d = NULL;
  EC_POINT *q = NULL;
  EVP_PKEY *pkey = NULL;
  uint8_t pub[133];
  size_t publen = 0;
  if (group == NULL || len > INT32_MAX) goto done;
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

EVP_PKEY *dc_pkey_from_private_der(const uint8_t *der, size_t len) {
  const unsigned char *p = der;
  EVP_PKEY *pkey = NULL;
  if (len > INT32_MAX) return NULL;
  pkey = d2i_AutoPrivateKey(NULL, &p, (long)len);
  if (pkey != NULL && p != der + len) {
    EVP_PKEY_free(pkey);
    return NULL;
  }
  return pkey;
}

int dc_ec_curve_of(const EVP_PKEY *pkey, DCCurve *curve) {
  char name[64];
  size_t len = 0;
  if (EVP_PKEY_get_base_id(pkey) != EVP_PKEY_EC) return 0;
  if (EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME, name, sizeof name, &len) != 1)
    return 0;
  if (strcmp(name, "prime256v1") == 0 || strcmp(name, "P-256") == 0) {
    *curve = DCCurveP256;
  } else if (strcmp(name, "secp384r1") == 0 || strcmp(name, "P-384") == 0) {
    *curve = DCCurveP384;
  } else if (strcmp(name, "secp521r1") == 0 || strcmp(name, "P-521") == 0) {
    *curve = DCCurveP521;
  } else {
    return 0;
  }
  return 1;
}

int dc_ec_public_bytes(const EVP_PKEY *pkey, uint8_t *out, size_t cap, size_t *outlen) {
  return EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out, cap,
                                         outlen);
}

int dc_ec_private_bytes(const EVP_PKEY *pkey, uint8_t *out, size_t len) {
  BIGNUM *d = NULL;
  int ok = 0;
  if (len > INT32_MAX) return 0;
  if (EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, &d) != 1) return 0;
  ok = BN_bn2binpad(d, out, (int)len) == (int)len;
  BN_clear_free(d);
  return ok;
}

int dc_pkey_up_ref(EVP_PKEY *pkey) { return EVP_PKEY_up_ref(pkey); }

void dc_pkey_free(EVP_PKEY *pkey) { EVP_PKEY_free(pkey); }

#endif
