// zlib (RFC 1950 / RFC 1951) for the StatusList module: the system library on Linux (Debian
// zlib1g-dev) and on Apple platforms (libz in the SDK). The init macros take the header's
// version and the z_stream size, which Swift cannot spell; these wrappers pass them.
#include <zlib.h>

static inline int dc_zlib_inflate_init(z_streamp stream) { return inflateInit(stream); }
static inline int dc_zlib_deflate_init(z_streamp stream, int level) {
  return deflateInit(stream, level);
}
