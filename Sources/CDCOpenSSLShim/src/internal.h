// Helpers shared by the shim's C files; not part of the module's interface.
#ifndef DC_OPENSSL_INTERNAL_H
#define DC_OPENSSL_INTERNAL_H

#include "dc_openssl.h"

#include <openssl/evp.h>

/// The EVP digest for a selector, or NULL for a value outside the enum.
const EVP_MD *dc_md(DCDigest digest);
/// OpenSSL's name for a digest, as the KDF parameters take it; NULL outside the enum.
const char *dc_md_name(DCDigest digest);

#endif
