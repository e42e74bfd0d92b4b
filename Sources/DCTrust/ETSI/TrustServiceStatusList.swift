import DCCrypto
import DCEncoding
public import DCX509
import Foundation

// ETSI TS 119 612 (v2.x) Trusted Lists in XML with an enveloped XAdES signature (§5.7.1,
// ETSI EN 319 132-1), and the EU list of trusted lists (LOTL, §5.3.13 pointers). Element names
// are the TS 119 612 XML schema's (namespace http://uri.etsi.org/02231/v2#).

/// The XML namespaces of TS 119 612 (Annex C) and XML Signature.
enum TSLNamespace {
  static let tsl = "http://uri.etsi.org/02231/v2#"
  static let additionalTypes = "http://uri.etsi.org/02231/v2/additionaltypes#"
  static let dsig = "http://www.w3.org/2000/09/xmldsig#"
  static let xades = "http://uri.etsi.org/01903/v1.3.2#"
  /// TS 119 612 §5.3.3 TSLType of the EU list of the lists.
  static let lotlType = "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists"
  /// TS 119 612 §5.3.3 TSLType of an EU Member State's list.
  static let euGenericType = "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric"
  /// TS 119 612 §5.3.13 MimeType of a pointed list in XML.
  static let tslMimeType = "application/vnd.etsi.tsl+xml"
}

extension TrustedList {
  /// Verifies a trusted list (ETSI TS 119 612, XML) with its enveloped XAdES signature against
  /// `operatorCertificates`, and reads its trust service providers' services.
  ///
  /// libxml2 parses (no network, entities or DTD) and xmlsec1 (OpenSSL) canonicalises and checks
  /// the signature; only then are entries read, from the same parsed document. A list of lists
  /// is refused here (``verifyingLOTL(_:operatorCertificates:)`` reads those).
  ///
  /// - Throws: `tooLarge`, `malformed`, `unsupported`, `untrustedSigner`, `invalidSignature`,
  ///   `expired`; `unavailable` where libxmlsec1 is not (non-Linux platforms).
  public static func verifyingTSL(
    _ bytes: [UInt8], operatorCertificates: [Certificate]
  ) throws(TrustError) -> TrustedList {
    try verifyingXMLList(bytes, operatorCertificates: operatorCertificates, kind: .tsl)
  }

  /// Verifies the EU list of trusted lists (ETSI TS 119 612 with TSLType EUlistofthelists) like
  /// ``verifyingTSL(_:operatorCertificates:)``, and reads its pointers to the Member States'
  /// lists (§5.3.13): each XML list's location, territory and signing certificates.
  public static func verifyingLOTL(
    _ bytes: [UInt8], operatorCertificates: [Certificate]
  ) throws(TrustError) -> TrustedList {
    try verifyingXMLList(bytes, operatorCertificates: operatorCertificates, kind: .lotl)
  }

  static func verifyingXMLList(
    _ bytes: [UInt8], operatorCertificates: [Certificate], kind: TrustedListKind
  ) throws(TrustError) -> TrustedList {
    guard bytes.count <= ETSIListLimits.maxListBytes else {
      throw TrustError(.tooLarge, "the list is larger than \(ETSIListLimits.maxListBytes) bytes")
    }
    #if canImport(CDCXMLSecShim)
      let tree = try XMLTree(bytes)
      guard let root = tree.root, root.isElement("TrustServiceStatusList", TSLNamespace.tsl) else {
        throw TrustError(.malformed, "the root is not a TrustServiceStatusList")
      }
      let signer = try XAdESEnveloped.signer(of: tree, root: root, among: operatorCertificates)
      let list = try TSLReader.read(
        root, kind: kind, signer: signer, digest: SHA256.hash(data: bytes))
      // The operator certificate must have been valid when the list was issued.
      guard signer.notBefore <= list.issued, list.issued <= signer.notAfter else {
        throw TrustError(.expired, "the operator certificate was not valid at the issue date")
      }
      return list
    #else
      throw TrustError(.unavailable, "XML trusted lists need libxmlsec1, which is Linux-only here")
    #endif
  }
}

extension TrustedList {
  /// Reads a TS 119 612 list WITHOUT any signature check, naming `signer` as the signer: only
  /// for the fuzz targets, which cannot produce valid signatures.
  package static func unverifiedXMLListForFuzzing(
    _ bytes: [UInt8], kind: TrustedListKind, signer: Certificate
  ) throws(TrustError) -> TrustedList {
    guard bytes.count <= ETSIListLimits.maxListBytes else {
      throw TrustError(.tooLarge, "the list is larger than \(ETSIListLimits.maxListBytes) bytes")
    }
    #if canImport(CDCXMLSecShim)
      let tree = try XMLTree(bytes)
      guard let root = tree.root, root.isElement("TrustServiceStatusList", TSLNamespace.tsl) else {
        throw TrustError(.malformed, "the root is not a TrustServiceStatusList")
      }
      return try TSLReader.read(root, kind: kind, signer: signer, digest: [])
    #else
      throw TrustError(.unavailable, "XML trusted lists need libxmlsec1, which is Linux-only here")
    #endif
  }
}

#if canImport(CDCXMLSecShim)
  internal import CDCXMLSecShim

  /// The enveloped XAdES signature of a trusted list (TS 119 612 §5.7.1).
  enum XAdESEnveloped {
    /// The operator certificate whose key verifies the signature. When none does, the signer the
    /// signature's KeyInfo names tells a list signed by someone else (`untrustedSigner`) from a
    /// changed one (`invalidSignature`).
    static func signer(of tree: XMLTree, root: XMLNodeRef, among operators: [Certificate])
      throws(TrustError) -> Certificate
    {
      var failures: [DCXMLStatus] = []
      for certificate in operators {
        let status = tree.verifySignature(with: certificate.derBytes)
        switch status {
        case DCXMLStatusOK: return certificate
        case DCXMLStatusMalformed:
          throw TrustError(
            .malformed,
            "the list has no single enveloped XAdES signature covering the whole list and its signed properties"
          )
        case DCXMLStatusFailure: throw TrustError(.unavailable, "xmlsec could not be initialised")
        default: failures.append(status)
        }
      }
      if let named = try keyInfoCertificate(root), !operators.contains(named) {
        throw TrustError(
          .untrustedSigner, "the list is signed by \(named.subject), not an operator")
      }
      if failures.contains(DCXMLStatusInvalid) || operators.isEmpty {
        throw TrustError(.invalidSignature, "the list's signature does not verify")
      }
      throw TrustError(
        .unsupported, "the list's signature uses an algorithm, transform or reference not allowed")
    }

    /// The signing certificate in `ds:Signature/ds:KeyInfo/ds:X509Data/ds:X509Certificate`.
    static func keyInfoCertificate(_ root: XMLNodeRef) throws(TrustError) -> Certificate? {
      guard
        let text = root.child("Signature", TSLNamespace.dsig)?.child("KeyInfo", TSLNamespace.dsig)?
          .child("X509Data", TSLNamespace.dsig)?.child("X509Certificate", TSLNamespace.dsig)?.text
      else { return nil }
      return try? ETSICertificate.read(base64: text)
    }
  }
#endif
