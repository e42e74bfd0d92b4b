// libqrencode (Debian/Ubuntu `libqrencode-dev`) for `dcwallet present --qr`: the QR code of the
// ISO 18013-5 `mdoc:` URI is encoded by the library, never by this package.
#ifndef DC_CQRENCODE_SHIM_H
#define DC_CQRENCODE_SHIM_H

#include <qrencode.h>

#endif
