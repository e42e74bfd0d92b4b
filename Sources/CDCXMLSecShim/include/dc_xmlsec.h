// Thin C helpers over libxml2 and xmlsec1 (OpenSSL backend) for the ETSI TS 119 612 trusted
// lists. Declarations only; the bodies are in `src/*.c`. xmlsec names its transforms and
// key formats with macros Swift cannot call, and its contexts are easier to set up in C. No
// canonicalisation or signature algorithm is written here: each helper composes library calls.
// Every helper frees what it allocates on every path and never aborts.
//
// libxml2's types appear as incomplete structs, so Swift sees opaque pointers and never parses
// libxml2's headers (which bring ICU headers that clash with Foundation's on Linux).
#ifndef DC_XMLSEC_SHIM_H
#define DC_XMLSEC_SHIM_H

#include <stddef.h>
#include <stdint.h>

struct _xmlDoc;
struct _xmlNode;
typedef struct _xmlDoc *xmlDocPtr;

/// The outcome of a helper.
typedef enum DCXMLStatus {
  DCXMLStatusOK = 0,
  /// The bytes are not well-formed XML, or the document is not the expected shape.
  DCXMLStatusMalformed = 1,
  /// The document declares a DTD (internal or external subset): refused before any use.
  DCXMLStatusDTD = 2,
  /// The signature, a reference digest or the key does not verify.
  DCXMLStatusInvalid = 3,
  /// An algorithm, transform or reference outside the allowed set.
  DCXMLStatusUnsupported = 4,
  /// The libraries could not be initialised, or an allocation failed.
  DCXMLStatusFailure = 5,
} DCXMLStatus;

/// Parses `length` bytes without network access, entity substitution or DTD loading, and
/// refuses a document with a DTD. The document is freed with `dc_xml_free_doc`.
DCXMLStatus dc_xml_parse(const uint8_t *bytes, size_t length, xmlDocPtr *document);

/// Frees a document from `dc_xml_parse`.
void dc_xml_free_doc(xmlDocPtr document);

/// The root element, or NULL.
const struct _xmlNode *dc_xml_root(xmlDocPtr document);

/// The first child of `node` that is an element, or NULL.
const struct _xmlNode *dc_xml_first_element(const struct _xmlNode *node);

/// The next sibling of `node` that is an element, or NULL.
const struct _xmlNode *dc_xml_next_element(const struct _xmlNode *node);

/// Whether `node` is the element with local name `name` in namespace `ns`.
int dc_xml_is(const struct _xmlNode *node, const char *name, const char *ns);

/// The text content of a node (its descendants' text), or NULL; free it with `dc_xml_free`.
char *dc_xml_text(const struct _xmlNode *node);

/// The value of an attribute without a namespace, or NULL; free it with `dc_xml_free`.
char *dc_xml_attribute(const struct _xmlNode *node, const char *name);

/// Frees memory libxml2 allocated.
void dc_xml_free(void *pointer);

/// Verifies the one enveloped XML Signature that is a child of the root element with the
/// public key of a DER certificate: every reference is the whole document (URI "" or the root's
/// Id) or a same-document Id, only C14N / exclusive C14N / enveloped transforms, SHA-2 digests
/// and ECDSA or RSA with SHA-2; one reference covers the whole document and one is the XAdES
/// SignedProperties.
DCXMLStatus dc_xmlsec_verify(xmlDocPtr document, const uint8_t *certificate, size_t length);

/// Signs the document's signature template (a ds:Signature child of the root with empty
/// digest and signature values) with a PKCS#8 DER private key; xmlsec writes the DER
/// certificate into the template's empty ds:X509Data.
DCXMLStatus dc_xmlsec_sign(xmlDocPtr document, const uint8_t *key, size_t length,
                           const uint8_t *certificate, size_t certificate_length);

/// Serialises the document as UTF-8; free the bytes with `dc_xml_free`.
DCXMLStatus dc_xml_serialize(xmlDocPtr document, uint8_t **bytes, size_t *length);

#endif
