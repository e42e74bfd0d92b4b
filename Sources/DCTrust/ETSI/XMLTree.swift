#if canImport(CDCXMLSecShim)
  internal import CDCXMLSecShim
  import Foundation

  /// A document parsed by libxml2 (no network, no entities, no DTD), freed when released.
  /// Verification and reading use this one parse, so what is read is what was verified.
  final class XMLTree: @unchecked Sendable {
    let document: xmlDocPtr

    /// Parses `bytes` (CDCXMLSecShim `dc_xml_parse`).
    init(_ bytes: [UInt8]) throws(TrustError) {
      var document: xmlDocPtr?
      let status = bytes.withUnsafeBufferPointer {
        dc_xml_parse($0.baseAddress, $0.count, &document)
      }
      switch status {
      case DCXMLStatusOK:
        guard let document else { throw TrustError(.malformed, "the list did not parse") }
        self.document = document
      case DCXMLStatusDTD:
        throw TrustError(.malformed, "the list declares a DTD, which a trusted list never has")
      case DCXMLStatusFailure:
        throw TrustError(.unavailable, "libxml2 / xmlsec could not be initialised")
      default:
        throw TrustError(.malformed, "the list is not well-formed XML")
      }
    }

    deinit { dc_xml_free_doc(document) }

    /// The root element.
    var root: XMLNodeRef? { dc_xml_root(document).map { XMLNodeRef(node: $0, tree: self) } }

    /// Verifies the enveloped signature with a certificate's key.
    func verifySignature(with certificateDER: [UInt8]) -> DCXMLStatus {
      certificateDER.withUnsafeBufferPointer {
        dc_xmlsec_verify(document, $0.baseAddress, $0.count)
      }
    }

    /// Signs the document's signature template with a PKCS#8 key, writing the certificate.
    func sign(key: [UInt8], certificate: [UInt8]) -> DCXMLStatus {
      key.withUnsafeBufferPointer { key in
        certificate.withUnsafeBufferPointer { certificate in
          dc_xmlsec_sign(
            document, key.baseAddress, key.count, certificate.baseAddress, certificate.count)
        }
      }
    }

    /// The document as UTF-8.
    func serialized() throws(TrustError) -> [UInt8] {
      var bytes: UnsafeMutablePointer<UInt8>?
      var length = 0
      guard dc_xml_serialize(document, &bytes, &length) == DCXMLStatusOK, let bytes else {
        throw TrustError(.malformed, "the list could not be serialised")
      }
      defer { dc_xml_free(bytes) }
      return Array(UnsafeBufferPointer(start: bytes, count: length))
    }
  }

  /// An element of an ``XMLTree``, kept alive by it.
  struct XMLNodeRef {
    let node: OpaquePointer
    let tree: XMLTree

    /// Whether this is the element `name` in namespace `namespace`.
    func isElement(_ name: String, _ namespace: String) -> Bool {
      dc_xml_is(node, name, namespace) != 0
    }

    /// The child elements named `name` in `namespace`, refusing more than `limit`.
    func children(_ name: String, _ namespace: String, limit: Int) throws(TrustError)
      -> [XMLNodeRef]
    {
      var found: [XMLNodeRef] = []
      var child = dc_xml_first_element(node)
      while let current = child {
        if dc_xml_is(current, name, namespace) != 0 {
          guard found.count < limit else {
            throw TrustError(.tooLarge, "more than \(limit) \(name) elements")
          }
          found.append(XMLNodeRef(node: current, tree: tree))
        }
        child = dc_xml_next_element(current)
      }
      return found
    }

    /// The first child element named `name` in `namespace`.
    func child(_ name: String, _ namespace: String) -> XMLNodeRef? {
      var child = dc_xml_first_element(node)
      while let current = child {
        if dc_xml_is(current, name, namespace) != 0 { return XMLNodeRef(node: current, tree: tree) }
        child = dc_xml_next_element(current)
      }
      return nil
    }

    /// The element's text, trimmed of surrounding white space.
    var text: String {
      guard let text = dc_xml_text(node) else { return "" }
      defer { dc_xml_free(text) }
      return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// An attribute without a namespace.
    func attribute(_ name: String) -> String? {
      guard let value = dc_xml_attribute(node, name) else { return nil }
      defer { dc_xml_free(value) }
      return String(cString: value)
    }
  }
#endif
