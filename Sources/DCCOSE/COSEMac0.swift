public import DCCBOR
import DCCrypto

/// A COSE_Mac0 message (RFC 9052 §6.2) with HMAC 256/256 (RFC 9053 §3.1).
///
/// ISO 18013-5 §9.1.3.5 authenticates devices this way (`deviceMac`) with a key from ECDH.
public struct COSEMac0: Sendable, Hashable {
  /// The CBOR tag of a COSE_Mac0 (RFC 9052 §2).
  package static let tag: UInt64 = 17

  /// The header buckets.
  public let headers: COSEHeaders
  /// The payload, or nil when detached.
  public let payload: [UInt8]?
  /// The MAC tag.
  public let mac: [UInt8]

  /// Assembles a message from its parts.
  package init(headers: COSEHeaders, payload: [UInt8]?, mac: [UInt8]) {
    self.headers = headers
    self.payload = payload
    self.mac = mac
  }

  /// Reads a COSE_Mac0 from CBOR, tagged or untagged.
  public init(cbor: CBOR) throws(COSEError) {
    let body = try COSEMessageBody(cbor: cbor, tag: Self.tag, name: "COSE_Mac0", lastMember: "tag")
    headers = body.headers
    payload = body.payload
    mac = body.last
  }

  /// The message as CBOR.
  public func cbor(tagged: Bool = false) -> CBOR {
    COSEMessageBody.cbor(
      headers: headers, payload: payload, last: mac, tag: tagged ? Self.tag : nil)
  }

  /// `MAC_structure = ["MAC0", protected, external_aad, payload]` (RFC 9052 §6.3).
  package static func toBeMACed(protectedBytes: [UInt8], externalAAD: [UInt8], payload: [UInt8])
    -> [UInt8]
  {
    CBOR.array([
      "MAC0", .byteString(protectedBytes), .byteString(externalAAD), .byteString(payload),
    ]).encoded()
  }

  /// Computes a COSE_Mac0 with HMAC 256/256.
  public static func mac(
    payload: [UInt8], detached: Bool = false, key: [UInt8], protected: CBORMap = CBORMap(),
    unprotected: CBORMap = CBORMap(), externalAAD: [UInt8] = []
  ) -> COSEMac0 {
    var protected = protected
    protected[key: COSEHeaderLabel.algorithm] = CBOR(COSEAlgorithm.hmac256.rawValue)
    let headers = COSEHeaders(protected: protected, unprotected: unprotected)
    let input = toBeMACed(
      protectedBytes: headers.bodyProtected, externalAAD: externalAAD, payload: payload)
    let tag = HMAC.authenticationCode(.sha256, for: input, key: key)
    return COSEMac0(headers: headers, payload: detached ? nil : payload, mac: tag)
  }

  /// Verifies the MAC in constant time.
  public func verify(key: [UInt8], detachedPayload: [UInt8]? = nil, externalAAD: [UInt8] = [])
    throws(COSEError)
  {
    guard headers.algorithm == .hmac256 else {
      throw COSEError(.unsupportedAlgorithm, "COSE_Mac0 alg must be HMAC 256/256 (5)")
    }
    let content = try COSEMessageBody.content(attached: payload, detached: detachedPayload)
    let input = Self.toBeMACed(
      protectedBytes: headers.bodyProtected, externalAAD: externalAAD, payload: content)
    guard HMAC.isValidAuthenticationCode(mac, .sha256, for: input, key: key) else {
      throw COSEError(.invalidSignature, "COSE_Mac0 tag does not verify")
    }
  }
}
