// XML Signature verification and signing with xmlsec1's OpenSSL backend (see
// include/dc_xmlsec.h). ETSI TS 119 612 §5.7.1: a trusted list carries one enveloped XAdES
// signature (ETSI EN 319 132-1) as a child of TrustServiceStatusList.
#include "dc_xmlsec.h"
#include "internal.h"

#include <pthread.h>
#include <string.h>
#include <xmlsec/crypto.h>
#include <xmlsec/errors.h>
#include <xmlsec/xmldsig.h>
#include <xmlsec/xmlsec.h>
#include <xmlsec/xmltree.h>

static int initialised = 0;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void quiet_xmlsec(const char *file, int line, const char *func, const char *object,
                         const char *subject, int reason, const char *message) {
  (void)file; (void)line; (void)func; (void)object; (void)subject; (void)reason; (void)message;
}

static void quiet_xml(void *context, const char *message, ...) {
  (void)context; (void)message;
}

static void initialise_once(void) {
  xmlInitParser();
  xmlSetGenericErrorFunc(NULL, quiet_xml);
  if (xmlSecInit() < 0) return;
  xmlSecErrorsSetCallback(quiet_xmlsec);
  if (xmlSecCheckVersion() != 1) return;
  if (xmlSecCryptoAppInit(NULL) < 0) return;
  if (xmlSecCryptoInit() < 0) return;
  initialised = 1;
}

int dc_xmlsec_initialise(void) {
  pthread_once(&once, initialise_once);
  return initialised;
}

static const xmlChar dsig_ns[] = "http://www.w3.org/2000/09/xmldsig#";
static const xmlChar signed_properties[] = "http://uri.etsi.org/01903#SignedProperties";

/// The one ds:Signature child of the root; NULL when there is none or more than one anywhere.
static xmlNodePtr enveloped_signature(xmlDocPtr document) {
  xmlNodePtr root = xmlDocGetRootElement(document);
  xmlNodePtr found = NULL;
  for (xmlNodePtr child = root->children; child != NULL; child = child->next) {
    if (child->type == XML_ELEMENT_NODE && xmlSecCheckNodeName(child, xmlSecNodeSignature, dsig_ns)) {
      if (found != NULL) return NULL;
      found = child;
    }
  }
  if (found == NULL) return NULL;
  // A second Signature anywhere else (inside the list's content) is refused too: which one a
  // reader meant would be ambiguous.
  xmlNodePtr other = xmlSecFindNode(root, xmlSecNodeSignature, dsig_ns);
  for (; other != NULL; other = xmlSecFindNode(other->next, xmlSecNodeSignature, dsig_ns)) {
    if (other != found) return NULL;
  }
  return found;
}

/// Registers Id attributes so same-document references resolve; the first of duplicates (in
/// document order, the root first) wins and xmlsec refuses the rest.
static void add_ids(xmlDocPtr document) {
  static const xmlChar *ids[] = {BAD_CAST "Id", NULL};
  xmlSecAddIDs(document, xmlDocGetRootElement(document), ids);
}

/// Allows only the transforms and algorithms a trusted list needs (TS 119 612 §5.7.1 with
/// EN 319 132-1): canonicalisation, the enveloped-signature transform, SHA-2 digests, ECDSA
/// and RSA PKCS#1 v1.5 with SHA-2. No XPath, XSLT, base64 or remote references.
static int restrict_context(xmlSecDSigCtxPtr context) {
  xmlSecTransformId c14n[] = {
      xmlSecTransformInclC14NId, xmlSecTransformExclC14NId, xmlSecTransformInclC14N11Id,
      xmlSecTransformEnvelopedId, xmlSecTransformSha256Id, xmlSecTransformSha384Id,
      xmlSecTransformSha512Id};
  xmlSecTransformId signatures[] = {
      xmlSecTransformInclC14NId,      xmlSecTransformExclC14NId,      xmlSecTransformInclC14N11Id,
      xmlSecTransformEcdsaSha256Id,   xmlSecTransformEcdsaSha384Id,   xmlSecTransformEcdsaSha512Id,
      xmlSecTransformRsaSha256Id,     xmlSecTransformRsaSha384Id,     xmlSecTransformRsaSha512Id};
  for (size_t i = 0; i < sizeof(c14n) / sizeof(c14n[0]); i++) {
    if (xmlSecDSigCtxEnableReferenceTransform(context, c14n[i]) < 0) return 0;
  }
  for (size_t i = 0; i < sizeof(signatures) / sizeof(signatures[0]); i++) {
    if (xmlSecDSigCtxEnableSignatureTransform(context, signatures[i]) < 0) return 0;
  }
  context->enabledReferenceUris = xmlSecTransformUriTypeEmpty | xmlSecTransformUriTypeSameDocument;
  return 1;
}

/// Whether `uri` names the whole document: "" or "#" followed by the root's Id.
static int covers_document(xmlDocPtr document, const xmlChar *uri) {
  if (uri == NULL || uri[0] == '\0') return 1;
  if (uri[0] != '#') return 0;
  xmlChar *id = xmlGetProp(xmlDocGetRootElement(document), BAD_CAST "Id");
  int covers = id != NULL && xmlStrEqual(id, uri + 1);
  if (id != NULL) xmlFree(id);
  return covers;
}

/// Checks the verified references: each a plain same-document reference, one covering the
/// whole document and one the XAdES SignedProperties (EN 319 132-1 §4.3.1).
static DCXMLStatus check_references(xmlDocPtr document, xmlSecDSigCtxPtr context) {
  int document_covered = 0, properties_covered = 0;
  xmlSecSize count = xmlSecPtrListGetSize(&context->signedInfoReferences);
  for (xmlSecSize i = 0; i < count; i++) {
    xmlSecDSigReferenceCtxPtr reference =
        (xmlSecDSigReferenceCtxPtr)xmlSecPtrListGetItem(&context->signedInfoReferences, i);
    if (reference == NULL || reference->status != xmlSecDSigStatusSucceeded) {
      return DCXMLStatusInvalid;
    }
    const xmlChar *uri = reference->uri;
    if (uri != NULL && (xmlStrchr(uri, '(') != NULL || (uri[0] != '\0' && uri[0] != '#'))) {
      return DCXMLStatusUnsupported;
    }
    if (covers_document(document, uri)) document_covered = 1;
    if (reference->type != NULL && xmlStrEqual(reference->type, signed_properties)) {
      properties_covered = 1;
    }
  }
  return document_covered && properties_covered ? DCXMLStatusOK : DCXMLStatusMalformed;
}

DCXMLStatus dc_xmlsec_verify(xmlDocPtr document, const uint8_t *certificate, size_t length) {
  if (!dc_xmlsec_initialise()) return DCXMLStatusFailure;
  xmlNodePtr signature = enveloped_signature(document);
  if (signature == NULL) return DCXMLStatusMalformed;
  add_ids(document);
  xmlSecKeyPtr key = xmlSecCryptoAppKeyLoadMemory(
      certificate, (xmlSecSize)length, xmlSecKeyDataFormatCertDer, NULL, NULL, NULL);
  if (key == NULL) return DCXMLStatusUnsupported;
  xmlSecDSigCtxPtr context = xmlSecDSigCtxCreate(NULL);
  if (context == NULL) {
    xmlSecKeyDestroy(key);
    return DCXMLStatusFailure;
  }
  context->signKey = key;  // the context owns and destroys it
  DCXMLStatus status = DCXMLStatusOK;
  if (!restrict_context(context)) {
    status = DCXMLStatusFailure;
  } else if (xmlSecDSigCtxVerify(context, signature) < 0) {
    // A refused algorithm or transform, or a structure xmlsec cannot process.
    status = DCXMLStatusUnsupported;
  } else if (context->status != xmlSecDSigStatusSucceeded) {
    status = DCXMLStatusInvalid;
  } else {
    status = check_references(document, context);
  }
  xmlSecDSigCtxDestroy(context);
  return status;
}

DCXMLStatus dc_xmlsec_sign(xmlDocPtr document, const uint8_t *key_bytes, size_t length,
                           const uint8_t *certificate, size_t certificate_length) {
  if (!dc_xmlsec_initialise()) return DCXMLStatusFailure;
  xmlNodePtr signature = enveloped_signature(document);
  if (signature == NULL) return DCXMLStatusMalformed;
  add_ids(document);
  // Unencrypted PKCS#8 is read by the generic DER format (xmlsec's Pkcs8Der is the encrypted
  // EncryptedPrivateKeyInfo form).
  xmlSecKeyPtr key = xmlSecCryptoAppKeyLoadMemory(
      key_bytes, (xmlSecSize)length, xmlSecKeyDataFormatDer, NULL, NULL, NULL);
  if (key == NULL) return DCXMLStatusUnsupported;
  // The certificate goes with the key, so xmlsec writes it into the template's X509Data.
  if (xmlSecCryptoAppKeyCertLoadMemory(key, certificate, (xmlSecSize)certificate_length,
                                       xmlSecKeyDataFormatCertDer) < 0) {
    xmlSecKeyDestroy(key);
    return DCXMLStatusUnsupported;
  }
  xmlSecDSigCtxPtr context = xmlSecDSigCtxCreate(NULL);
  if (context == NULL) {
    xmlSecKeyDestroy(key);
    return DCXMLStatusFailure;
  }
  context->signKey = key;
  DCXMLStatus status = xmlSecDSigCtxSign(context, signature) < 0 ? DCXMLStatusFailure
                                                                  : DCXMLStatusOK;
  xmlSecDSigCtxDestroy(context);
  return status;
}
