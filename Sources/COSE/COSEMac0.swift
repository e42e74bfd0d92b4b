public import CBOR
import CryptoPrimitives

/// A COSE_Mac0 message (RFC 9052 §6.2) with HMAC 256/256 (RFC 9053 §3.1).
///
/// ISO 18013-5 §9.1.3.5 authenticates devices this way (`deviceMac`) with a key from ECDH.
public struct COSEMac0: Sendable, Hashable {
  /// The CBOR tag of a COSE_Mac0 (RFC 9052 §2).
  public static let tag: UInt64 = 17

  /// The header buckets.
  public let headers: COSEHeaders
  /// The payload, or nil when detached.
  public let payload: [UInt8]?
  /// The MAC tag.
  public let mac: [UInt8]

  /// Assembles a message from its parts.
  public init(headers: COSEHeaders, payload: [UInt8]?, mac: [UInt8]) {
    self.headers = headers
    self.payload = payload
    self.mac = mac
  }

  /// Reads a COSE_Mac0 from CBOR, tagged or untagged.
  public init(cbor: CBOR) throws(COSEError) {
    var item = cbor.unwrapped
    if case .tagged(let tag, let inner) = item {
      guard tag == Self.tag else {
        throw COSEError(.malformed, "COSE_Mac0 has tag \(tag), expected 17")
      }
      item = inner.unwrapped
    }
    guard let members = item.array, members.count == 4 else {
      throw COSEError(.malformed, "COSE_Mac0 must be an array of 4 members")
    }
    headers = try COSEHeaders(protectedItem: members[0], unprotectedItem: members[1])
    switch members[2].unwrapped {
    case .byteString(let bytes): payload = bytes
    case .null: payload = nil
    default: throw COSEError(.malformed, "COSE_Mac0 payload must be a bstr or nil")
    }
    guard let mac = members[3].bytes else {
      throw COSEError(.malformed, "COSE_Mac0 tag must be a bstr")
    }
    self.mac = mac
  }

  /// The message as CBOR.
  public func cbor(tagged: Bool = false) -> CBOR {
    let body: CBOR = [
      .byteString(headers.protectedBytes), .map(headers.unprotected),
      payload.map { .byteString($0) } ?? .null, .byteString(mac),
    ]
    return tagged ? .tagged(Self.tag, body) : body
  }

  /// `MAC_structure = ["MAC0", protected, external_aad, payload]` (RFC 9052 §6.3).
  public static func toBeMACed(protectedBytes: [UInt8], externalAAD: [UInt8], payload: [UInt8])
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
    let content: [UInt8]
    switch (payload, detachedPayload) {
    case (let attached?, nil): content = attached
    case (nil, let detached?): content = detached
    case (nil, nil):
      throw COSEError(.payloadMismatch, "the payload is detached and none was supplied")
    case (.some, .some):
      throw COSEError(.payloadMismatch, "the payload is attached; a detached one was also supplied")
    }
    let input = Self.toBeMACed(
      protectedBytes: headers.bodyProtected, externalAAD: externalAAD, payload: content)
    guard HMAC.isValidAuthenticationCode(mac, .sha256, for: input, key: key) else {
      throw COSEError(.invalidSignature, "COSE_Mac0 tag does not verify")
    }
  }
}
