public import DCCBOR

/// Header parameter labels used here (RFC 9052 §3.1; RFC 9360 §2 for x5chain).
public enum COSEHeaderLabel {
  /// `alg` (label 1): the algorithm of the signature or MAC, e.g. -7 for ES256 (RFC 9053 §2.1).
  public static let algorithm: CBOR = 1
  /// `crit` (label 2): the labels a recipient must understand to process the message.
  public static let critical: CBOR = 2
  /// `content type` (label 3): the payload's media type, as a text string or CoAP number.
  public static let contentType: CBOR = 3
  /// `kid` (label 4): a byte string naming the key (the key ID).
  public static let keyID: CBOR = 4
  /// `x5chain` (RFC 9360 §2): one certificate as a bstr, or an array of bstr, leaf first.
  public static let x5chain: CBOR = 33
}

/// A message's protected and unprotected header buckets (RFC 9052 §3).
///
/// The protected bucket keeps its bytes exactly as received: they are what was signed.
public struct COSEHeaders: Sendable, Hashable {
  /// The serialized protected header: the contents of the bstr, possibly empty.
  package let protectedBytes: [UInt8]
  /// The decoded protected header.
  public let protected: CBORMap
  /// The unprotected header.
  public let unprotected: CBORMap

  /// Builds headers to sign; an empty protected map is serialized as a zero-length bstr
  /// (RFC 9052 §3).
  public init(protected: CBORMap, unprotected: CBORMap = CBORMap()) {
    self.protected = protected
    self.unprotected = unprotected
    self.protectedBytes = protected.isEmpty ? [] : CBOR.map(protected).encoded()
  }

  /// Reads headers from a message's first two members, keeping the protected bytes.
  init(protectedItem: CBOR, unprotectedItem: CBOR) throws(COSEError) {
    guard let bytes = protectedItem.bytes else {
      throw COSEError(.malformed, "protected header must be a bstr")
    }
    protectedBytes = bytes
    if bytes.isEmpty {
      protected = CBORMap()
    } else {
      let decoded: CBOR
      do {
        decoded = try CBOR.decode(bytes)
      } catch {
        throw COSEError(error, "protected header")
      }
      guard let map = decoded.map else {
        throw COSEError(.malformed, "protected header bstr must hold a map")
      }
      protected = map
    }
    guard let map = unprotectedItem.map else {
      throw COSEError(.malformed, "unprotected header must be a map")
    }
    unprotected = map
    // RFC 9052 §3: a label must not appear in both buckets.
    for key in protected.keys where map[key: key] != nil {
      throw COSEError(.malformed, "header label \(key) appears in both buckets")
    }
    try checkCritical()
  }

  /// `body_protected` as the Sig_structure and MAC_structure take it: the received bytes, or a
  /// zero-length bstr when there are no protected attributes, even if the wire carried `h'A0'`
  /// (RFC 9052 §4.4, §6.3).
  package var bodyProtected: [UInt8] { protected.isEmpty ? [] : protectedBytes }

  /// Looks a parameter up in the protected bucket first, then the unprotected one.
  public subscript(label: CBOR) -> CBOR? {
    protected[key: label] ?? unprotected[key: label]
  }

  /// The algorithm, from either bucket.
  public var algorithm: COSEAlgorithm? {
    self[COSEHeaderLabel.algorithm]?.int.flatMap(COSEAlgorithm.init(rawValue:))
  }

  /// The key identifier.
  public var keyID: [UInt8]? { self[COSEHeaderLabel.keyID]?.bytes }

  /// The `x5chain` certificates as DER, leaf first (RFC 9360 §2); empty when absent.
  public var x5chain: [[UInt8]] {
    get throws(COSEError) {
      guard let item = self[COSEHeaderLabel.x5chain] else { return [] }
      if let single = item.bytes { return [single] }
      guard let array = item.array, !array.isEmpty else {
        throw COSEError(.malformed, "x5chain must be a bstr or a non-empty array of bstr")
      }
      var out = [[UInt8]]()
      for element in array {
        guard let der = element.bytes else {
          throw COSEError(.malformed, "x5chain members must be bstr")
        }
        out.append(der)
      }
      return out
    }
  }

  /// The labels this library understands, for RFC 9052 §3.1 `crit`.
  static let understood: Set<CBOR> = [
    COSEHeaderLabel.algorithm, COSEHeaderLabel.critical, COSEHeaderLabel.contentType,
    COSEHeaderLabel.keyID,
    COSEHeaderLabel.x5chain,
  ]

  private func checkCritical() throws(COSEError) {
    guard let crit = protected[key: COSEHeaderLabel.critical] else { return }
    guard let labels = crit.array, !labels.isEmpty else {
      throw COSEError(.malformed, "crit must be a non-empty array")
    }
    for label in labels where !Self.understood.contains(label) {
      throw COSEError(
        .unknownCriticalHeader, "critical header parameter \(label) is not understood")
    }
  }

  /// `x5chain` as the header value: a bstr for one certificate, else an array (RFC 9360 §2).
  public static func x5chainValue(_ chain: [[UInt8]]) -> CBOR {
    chain.count == 1 ? .byteString(chain[0]) : .array(chain.map { .byteString($0) })
  }
}

/// The four members shared by COSE_Sign1 and COSE_Mac0 (RFC 9052 §4.2, §6.2):
/// `[protected, unprotected, payload / nil, signature-or-tag]`, tagged or untagged.
struct COSEMessageBody {
  let headers: COSEHeaders
  let payload: [UInt8]?
  let last: [UInt8]

  /// Reads the body, checking the tag when present; `name` goes into error messages.
  init(cbor: CBOR, tag expectedTag: UInt64, name: String, lastMember: String) throws(COSEError) {
    var item = cbor.unwrapped
    if case .tagged(let tag, let inner) = item {
      guard tag == expectedTag else {
        throw COSEError(.malformed, "\(name) has tag \(tag), expected \(expectedTag)")
      }
      item = inner.unwrapped
    }
    guard let members = item.array, members.count == 4 else {
      throw COSEError(.malformed, "\(name) must be an array of 4 members")
    }
    headers = try COSEHeaders(protectedItem: members[0], unprotectedItem: members[1])
    switch members[2].unwrapped {
    case .byteString(let bytes): payload = bytes
    case .null: payload = nil
    default: throw COSEError(.malformed, "\(name) payload must be a bstr or nil")
    }
    guard let last = members[3].bytes else {
      throw COSEError(.malformed, "\(name) \(lastMember) must be a bstr")
    }
    self.last = last
  }

  /// Writes a body, tagged or not.
  static func cbor(headers: COSEHeaders, payload: [UInt8]?, last: [UInt8], tag: UInt64?) -> CBOR {
    let body: CBOR = [
      .byteString(headers.protectedBytes), .map(headers.unprotected),
      payload.map { .byteString($0) } ?? .null,
      .byteString(last),
    ]
    return tag.map { .tagged($0, body) } ?? body
  }

  /// Picks the content to authenticate: the attached payload or the detached one, never both.
  static func content(attached: [UInt8]?, detached: [UInt8]?) throws(COSEError) -> [UInt8] {
    switch (attached, detached) {
    case (let attached?, nil): return attached
    case (nil, let detached?): return detached
    case (nil, nil):
      throw COSEError(.payloadMismatch, "the payload is detached and none was supplied")
    case (.some, .some):
      throw COSEError(.payloadMismatch, "the payload is attached; a detached one was also supplied")
    }
  }
}
