package import DCCrypto
import DCEncoding
package import DCX509
import Foundation

#if canImport(CDCXMLSecShim)
  internal import CDCXMLSecShim
#endif

extension ETSIListContent {
  /// Signs the content as a TS 119 612 trusted list (`kind` `.tsl`) or list of lists (`.lotl`)
  /// with an enveloped XAdES-B-B signature (EN 319 132-1; TS 119 612 §5.7.1) made by xmlsec1
  /// with `key`, whose certificate is `certificate`; the signing time is the issue date. For
  /// development lists and tests.
  ///
  /// - Throws: `unavailable` where libxmlsec1 is not (non-Linux platforms).
  package func signedTSL(kind: TrustedListKind, key: ECPrivateKey, certificate: Certificate)
    throws(TrustError) -> [UInt8]
  {
    try Self.signTemplate(
      Array(tslTemplate(kind: kind, curve: key.curve, certificate: certificate).utf8), key: key,
      certificate: certificate)
  }

  /// Signs a list's signature template as it is (tests that need a template the builder would
  /// not write).
  package static func signTemplate(_ template: [UInt8], key: ECPrivateKey, certificate: Certificate)
    throws(TrustError) -> [UInt8]
  {
    #if canImport(CDCXMLSecShim)
      let tree = try XMLTree(template)
      guard
        tree.sign(key: key.derRepresentation, certificate: certificate.derBytes) == DCXMLStatusOK
      else { throw TrustError(.malformed, "xmlsec could not sign the list") }
      return try tree.serialized()
    #else
      throw TrustError(.unavailable, "XML trusted lists need libxmlsec1, which is Linux-only here")
    #endif
  }

  /// The list with an unsigned signature template (TS 119 612 clause 5 element order).
  package func tslTemplate(kind: TrustedListKind, curve: EllipticCurve, certificate: Certificate)
    -> String
  {
    let type = kind == .lotl ? TSLNamespace.lotlType : TSLNamespace.euGenericType
    var xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <tsl:TrustServiceStatusList xmlns:tsl="\(TSLNamespace.tsl)" xmlns:ds="\(TSLNamespace.dsig)" \
      xmlns:xades="\(TSLNamespace.xades)" xmlns:tslx="\(TSLNamespace.additionalTypes)" \
      Id="tsl" TSLTag="http://uri.etsi.org/19612/TSLTag"><tsl:SchemeInformation>\
      <tsl:TSLVersionIdentifier>6</tsl:TSLVersionIdentifier>\
      <tsl:TSLSequenceNumber>\(sequenceNumber)</tsl:TSLSequenceNumber>\
      <tsl:TSLType>\(type)</tsl:TSLType>\
      <tsl:SchemeOperatorName>\(Self.name(operatorName))</tsl:SchemeOperatorName>\
      <tsl:SchemeTerritory>\(Self.escaped(territory))</tsl:SchemeTerritory>
      """
    if !pointers.isEmpty { xml += tslPointers() }
    xml += "<tsl:ListIssueDateTime>\(ETSIDateTime.format(issued))</tsl:ListIssueDateTime>"
    xml += "<tsl:NextUpdate><tsl:dateTime>\(ETSIDateTime.format(nextUpdate))</tsl:dateTime>"
    xml += "</tsl:NextUpdate></tsl:SchemeInformation>"
    if !entries.isEmpty { xml += tslProviders() }
    xml += Self.signatureTemplate(curve: curve, certificate: certificate, signingTime: issued)
    return xml + "</tsl:TrustServiceStatusList>"
  }

  /// `TrustServiceProviderList`, one provider per entry (§5.4, §5.5).
  func tslProviders() -> String {
    var xml = "<tsl:TrustServiceProviderList>"
    for entry in entries {
      let name = Self.name(entry.name)
      xml += "<tsl:TrustServiceProvider><tsl:TSPInformation><tsl:TSPName>\(name)</tsl:TSPName>"
      xml += "</tsl:TSPInformation><tsl:TSPServices><tsl:TSPService><tsl:ServiceInformation>"
      xml +=
        "<tsl:ServiceTypeIdentifier>\(Self.escaped(entry.serviceTypeURI))</tsl:ServiceTypeIdentifier>"
      xml += "<tsl:ServiceName>\(name)</tsl:ServiceName>"
      xml += Self.identity(entry.certificates)
      xml +=
        "<tsl:ServiceStatus>\(Self.escaped(entry.status ?? ETSIServiceTypeURI.granted))</tsl:ServiceStatus>"
      xml += "<tsl:StatusStartingTime>\(ETSIDateTime.format(issued))</tsl:StatusStartingTime>"
      xml +=
        "</tsl:ServiceInformation></tsl:TSPService></tsl:TSPServices></tsl:TrustServiceProvider>"
    }
    return xml + "</tsl:TrustServiceProviderList>"
  }

  /// `PointersToOtherTSL` (§5.3.13) to XML lists.
  func tslPointers() -> String {
    var xml = "<tsl:PointersToOtherTSL>"
    for pointer in pointers {
      xml += "<tsl:OtherTSLPointer><tsl:ServiceDigitalIdentities>"
      xml += Self.identity(pointer.certificates) + "</tsl:ServiceDigitalIdentities>"
      xml += "<tsl:TSLLocation>\(Self.escaped(pointer.location.absoluteString))</tsl:TSLLocation>"
      xml += "<tsl:AdditionalInformation>"
      xml +=
        "<tsl:OtherInformation><tsl:TSLType>\(TSLNamespace.euGenericType)</tsl:TSLType></tsl:OtherInformation>"
      xml +=
        "<tsl:OtherInformation><tsl:SchemeTerritory>\(Self.escaped(pointer.territory))</tsl:SchemeTerritory></tsl:OtherInformation>"
      xml +=
        "<tsl:OtherInformation><tslx:MimeType>\(TSLNamespace.tslMimeType)</tslx:MimeType></tsl:OtherInformation>"
      xml += "</tsl:AdditionalInformation></tsl:OtherTSLPointer>"
    }
    return xml + "</tsl:PointersToOtherTSL>"
  }

  /// The enveloped signature template: the whole list (enveloped + exclusive C14N) and the XAdES
  /// SignedProperties (SigningTime, SigningCertificateV2: EN 319 132-1 §5.2.1, §5.2.2) by
  /// reference; xmlsec fills the digests, the signature value and the X509Data.
  static func signatureTemplate(curve: EllipticCurve, certificate: Certificate, signingTime: Date)
    -> String
  {
    let method = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-\(curve.defaultDigest.xmlName)"
    let c14n = "http://www.w3.org/2001/10/xml-exc-c14n#"
    let sha256 = "http://www.w3.org/2001/04/xmlenc#sha256"
    let certDigest = Base64.encode(SHA256.hash(data: certificate.derBytes))
    return """
      <ds:Signature Id="sig"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="\(c14n)"/>\
      <ds:SignatureMethod Algorithm="\(method)"/><ds:Reference Id="ref-list" URI="">\
      <ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>\
      <ds:Transform Algorithm="\(c14n)"/></ds:Transforms><ds:DigestMethod Algorithm="\(sha256)"/>\
      <ds:DigestValue></ds:DigestValue></ds:Reference>\
      <ds:Reference Type="http://uri.etsi.org/01903#SignedProperties" URI="#sig-properties">\
      <ds:Transforms><ds:Transform Algorithm="\(c14n)"/></ds:Transforms>\
      <ds:DigestMethod Algorithm="\(sha256)"/><ds:DigestValue></ds:DigestValue></ds:Reference>\
      </ds:SignedInfo><ds:SignatureValue></ds:SignatureValue><ds:KeyInfo><ds:X509Data/></ds:KeyInfo>\
      <ds:Object><xades:QualifyingProperties Target="#sig"><xades:SignedProperties Id="sig-properties">\
      <xades:SignedSignatureProperties><xades:SigningTime>\(ETSIDateTime.format(signingTime))</xades:SigningTime>\
      <xades:SigningCertificateV2><xades:Cert><xades:CertDigest><ds:DigestMethod Algorithm="\(sha256)"/>\
      <ds:DigestValue>\(certDigest)</ds:DigestValue></xades:CertDigest></xades:Cert></xades:SigningCertificateV2>\
      </xades:SignedSignatureProperties></xades:SignedProperties></xades:QualifyingProperties></ds:Object>\
      </ds:Signature>
      """
  }

  static func name(_ text: String) -> String {
    "<tsl:Name xml:lang=\"en\">\(escaped(text))</tsl:Name>"
  }

  static func identity(_ certificates: [Certificate]) -> String {
    let ids = certificates.map {
      "<tsl:DigitalId><tsl:X509Certificate>\(Base64.encode($0.derBytes))</tsl:X509Certificate></tsl:DigitalId>"
    }
    return "<tsl:ServiceDigitalIdentity>\(ids.joined())</tsl:ServiceDigitalIdentity>"
  }

  /// Text escaped for XML character data and attribute values (XML 1.0 §2.4).
  static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}

extension DigestAlgorithm {
  /// The name XML Signature algorithm URIs use (RFC 6931 §2.3.6).
  var xmlName: String {
    switch self {
    case .sha256: "sha256"
    case .sha384: "sha384"
    case .sha512: "sha512"
    }
  }
}
