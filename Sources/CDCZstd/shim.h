// Zstandard (RFC 8878) for DCZK: Longfellow circuits are distributed zstd-compressed
// (draft-google-cfrg-libzk). The system library: Debian libzstd-dev.
#include <zstd.h>
