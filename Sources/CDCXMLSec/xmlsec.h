// libxml2 (parsing, the tree) and xmlsec1 with its OpenSSL backend (XML canonicalisation and
// XML Signature) for the ETSI TS 119 612 trusted lists (issue 29). This system library target
// only exposes the headers and links the libraries (pkg-config `xmlsec1-openssl`, which brings
// `libxml-2.0`); the calls that need xmlsec's macros live in CDCXMLSecShim (`src/*.c`).
#ifndef DC_CXMLSEC_H
#define DC_CXMLSEC_H

#include <libxml/parser.h>
#include <libxml/tree.h>

#endif
