// The OpenSSL 3 libcrypto headers the COpenSSLShim C target compiles against. This system
// library target only links libcrypto (pkg-config `libcrypto`) and exposes its headers; every
// helper with logic lives in COpenSSLShim (`src/*.c`, declarations in `include/dc_openssl.h`).
#ifndef DC_COPENSSL_H
#define DC_COPENSSL_H

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

#endif
