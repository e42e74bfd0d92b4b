// libxml2 parsing and serialisation for the trusted lists (see include/dc_xmlsec.h).
#include "dc_xmlsec.h"
#include "internal.h"

#include <libxml/parser.h>
#include <libxml/xmlmemory.h>
#include <limits.h>

DCXMLStatus dc_xml_parse(const uint8_t *bytes, size_t length, xmlDocPtr *document) {
  *document = NULL;
  if (!dc_xmlsec_initialise()) return DCXMLStatusFailure;
  if (length > INT_MAX) return DCXMLStatusMalformed;
  // No network, no entity substitution (XML_PARSE_NOENT off), no DTD loading or validation,
  // no error output; libxml2's own depth limit (256) stays on (no XML_PARSE_HUGE).
  int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA;
  xmlDocPtr doc = xmlReadMemory((const char *)bytes, (int)length, NULL, NULL, options);
  if (doc == NULL) return DCXMLStatusMalformed;
  // A DTD can declare entities (expansion bombs) and ID attributes (which would move the
  // target of a signature reference): a trusted list has none, so any DTD is refused.
  if (doc->intSubset != NULL || doc->extSubset != NULL) {
    xmlFreeDoc(doc);
    return DCXMLStatusDTD;
  }
  if (xmlDocGetRootElement(doc) == NULL) {
    xmlFreeDoc(doc);
    return DCXMLStatusMalformed;
  }
  *document = doc;
  return DCXMLStatusOK;
}

void dc_xml_free_doc(xmlDocPtr document) {
  if (document != NULL) xmlFreeDoc(document);
}

const struct _xmlNode *dc_xml_root(xmlDocPtr document) {
  return xmlDocGetRootElement(document);
}

static const xmlNode *element_from(const xmlNode *node) {
  while (node != NULL && node->type != XML_ELEMENT_NODE) node = node->next;
  return node;
}

const struct _xmlNode *dc_xml_first_element(const struct _xmlNode *node) {
  return node == NULL ? NULL : element_from(node->children);
}

const struct _xmlNode *dc_xml_next_element(const struct _xmlNode *node) {
  return node == NULL ? NULL : element_from(node->next);
}

int dc_xml_is(const struct _xmlNode *node, const char *name, const char *ns) {
  if (node == NULL || node->type != XML_ELEMENT_NODE || node->ns == NULL) return 0;
  return xmlStrEqual(node->name, BAD_CAST name) && xmlStrEqual(node->ns->href, BAD_CAST ns);
}

char *dc_xml_text(const struct _xmlNode *node) {
  if (node == NULL) return NULL;
  return (char *)xmlNodeGetContent(node);
}

char *dc_xml_attribute(const struct _xmlNode *node, const char *name) {
  if (node == NULL) return NULL;
  return (char *)xmlGetNoNsProp(node, BAD_CAST name);
}

void dc_xml_free(void *pointer) {
  if (pointer != NULL) xmlFree(pointer);
}

DCXMLStatus dc_xml_serialize(xmlDocPtr document, uint8_t **bytes, size_t *length) {
  xmlChar *buffer = NULL;
  int size = 0;
  xmlDocDumpMemoryEnc(document, &buffer, &size, "UTF-8");
  if (buffer == NULL || size < 0) return DCXMLStatusFailure;
  *bytes = (uint8_t *)buffer;
  *length = (size_t)size;
  return DCXMLStatusOK;
}
