public import DCCrypto
import DCEncoding
public import DCJSON

/// A JWS in the JSON serialization, general or flattened (RFC 7515 §7.2).
///
/// Each signature keeps the exact protected header text received, and its signing input is the
/// received `protected` value, `.`, and the received `payload` value (RFC 7515 §7.2.1).
public struct JWSJSON: Sendable, Hashable {
  /// One signature of a JSON-serialized JWS (RFC 7515 §7.2.1).
  public struct Signature: Sendable, Hashable {
    /// The integrity-protected header, a JSON object (`protected`, RFC 7515 §7.2.1).
    package let protectedHeader: JSONValue
    /// The protected header's UTF-8 bytes as decoded (RFC 7515 §7.2.1).
    package let protectedHeaderBytes: [UInt8]
    /// The unprotected header (`header`, RFC 7515 §7.2.1), if any.
    package let unprotectedHeader: JSONValue?
    /// The received ASCII `protected.payload` the signature covers (RFC 7515 §5.2 step 8).
    package let signingInput: [UInt8]
    /// The raw `R || S` signature (RFC 7518 §3.4).
    package let signature: [UInt8]
    /// The algorithm from the protected `alg` (RFC 7515 §4.1.1).
    public let algorithm: JWSAlgorithm
    /// The chain from `x5c` in either header, DER, leaf first (RFC 7515 §4.1.6).
    public let x5c: [[UInt8]]?
    /// The `jwk` from either header (RFC 7515 §4.1.3).
    public let jwk: JWK?

    /// A header parameter from the protected header, else the unprotected one (RFC 7515 §7.2.1).
    public func header(_ name: String) -> JSONValue? {
      protectedHeader[name] ?? unprotectedHeader?[name]
    }

    /// The key ID, `kid`, from either header (RFC 7515 §4.1.4).
    public var keyID: String? { header("kid")?.string }

    /// Verifies this signature over its received signing input (RFC 7515 §5.2 step 8).
    public func verifySignature(with key: ECPublicKey) throws(JOSEError) {
      try algorithm.verify(signature: signature, signingInput: signingInput, key: key)
    }

    init(json: JSONValue, encodedPayload: String) throws(JOSEError) {
      guard case .object = json else {
        throw JOSEError(.malformedJWS, "a signature entry must be a JSON object")
      }
      // This module requires `alg` to be integrity protected, so `protected` is mandatory.
      guard let encodedHeader = json["protected"]?.string else {
        throw JOSEError(.malformedJWS, "signature entry needs a protected header string")
      }
      guard let encodedSignature = json["signature"]?.string else {
        throw JOSEError(.malformedJWS, "signature entry needs a signature string")
      }
      let header = try JOSEHeader.decodeProtected(encodedHeader[...], code: .malformedJWS)
      let unprotected = json["header"]
      try JOSEHeader.checkDisjoint(protected: header.value, unprotected: unprotected)
      try JOSEHeader.checkExtensions(protected: header.value, unprotected: unprotected)
      do {
        signature = try Base64URL.decode(encodedSignature)
      } catch {
        throw JOSEError(.malformedJWS, "signature: \(error.reason)", underlying: error)
      }
      guard let alg = try JOSEHeader.string("alg", in: header.value) else {
        throw JOSEError(.invalidHeader, "JWS protected header has no alg")
      }
      algorithm = try JWSAlgorithm(name: alg)
      let merged: JSONValue = .object(
        (header.value.object ?? []) + (unprotected?.object ?? []))
      x5c = try JOSEHeader.x5c(in: merged)
      jwk = try JOSEHeader.jwk(in: merged)
      _ = try JOSEHeader.string("kid", in: merged)
      protectedHeader = header.value
      protectedHeaderBytes = header.bytes
      unprotectedHeader = unprotected
      signingInput = Array("\(encodedHeader).\(encodedPayload)".utf8)
    }
  }

  /// The payload bytes (RFC 7515 §7.2.1).
  public let payload: [UInt8]
  /// The payload as received, base64url (RFC 7515 §7.2.1).
  package let encodedPayload: String
  /// The signatures, in document order; each is verified on its own (RFC 7515 §7.2.1).
  public let signatures: [Signature]

  /// Reads the general (`signatures`) or flattened (`signature`) form (RFC 7515 §7.2.1, §7.2.2).
  package init(json: JSONValue) throws(JOSEError) {
    guard case .object = json else {
      throw JOSEError(.malformedJWS, "a JSON JWS must be a JSON object")
    }
    guard let encodedPayload = json["payload"]?.string else {
      throw JOSEError(.malformedJWS, "JSON JWS needs a payload string (detached is unsupported)")
    }
    do {
      payload = try Base64URL.decode(encodedPayload)
    } catch {
      throw JOSEError(.malformedJWS, "payload: \(error.reason)", underlying: error)
    }
    self.encodedPayload = encodedPayload
    if let list = json["signatures"] {
      // RFC 7515 §7.2.2: the flattened members must not appear beside `signatures`.
      guard json["signature"] == nil, json["protected"] == nil, json["header"] == nil else {
        throw JOSEError(.malformedJWS, "signatures and flattened members are mutually exclusive")
      }
      guard let array = list.array, !array.isEmpty else {
        throw JOSEError(.malformedJWS, "signatures must be a non-empty array")
      }
      var parsed: [Signature] = []
      for entry in array {
        parsed.append(try Signature(json: entry, encodedPayload: encodedPayload))
      }
      signatures = parsed
    } else {
      signatures = [try Signature(json: json.removing("payload"), encodedPayload: encodedPayload)]
    }
  }

  /// Parses JSON text and reads it as a JSON JWS (RFC 7515 §7.2).
  public init(_ text: String) throws(JOSEError) {
    let json: JSONValue
    do {
      json = try JSONValue(parsing: text)
    } catch {
      throw JOSEError(.malformedJWS, "not JSON: \(error.reason)", underlying: error)
    }
    try self.init(json: json)
  }

  /// One signer for `sign(payload:signers:)`: its protected header, an optional unprotected
  /// header, and the key (RFC 7515 §7.2.1).
  public struct SignerEntry: Sendable {
    /// The header to protect; `alg` is added from the signer's curve if absent.
    package var protectedHeader: JSONValue
    /// Header parameters left unprotected, such as `kid` (RFC 7515 §7.2.1).
    package var unprotectedHeader: JSONValue?
    /// The signing key.
    package var signer: any Signer

    /// Creates an entry.
    public init(
      protectedHeader: JSONValue = .object([]), unprotectedHeader: JSONValue? = nil,
      signer: any Signer
    ) {
      self.protectedHeader = protectedHeader
      self.unprotectedHeader = unprotectedHeader
      self.signer = signer
    }
  }

  /// Signs `payload` once per signer and returns the general JSON serialization (RFC 7515 §7.2.1).
  public static func sign(payload: [UInt8], signers: [SignerEntry]) throws(JOSEError) -> JSONValue {
    guard !signers.isEmpty else { throw JOSEError(.malformedJWS, "at least one signer is needed") }
    let encodedPayload = Base64URL.encode(payload)
    var entries: [JSONValue] = []
    for entry in signers {
      let (encodedHeader, algorithm) = try JWS.encodeProtectedHeader(
        entry.protectedHeader, signer: entry.signer, unprotected: entry.unprotectedHeader)
      let signature = try algorithm.sign(
        Array("\(encodedHeader).\(encodedPayload)".utf8), with: entry.signer)
      var members: [(key: String, value: JSONValue)] = [("protected", .string(encodedHeader))]
      if let header = entry.unprotectedHeader { members.append(("header", header)) }
      members.append(("signature", .string(Base64URL.encode(signature))))
      entries.append(.object(members))
    }
    return .object([("payload", .string(encodedPayload)), ("signatures", .array(entries))])
  }

  /// Signs with tuples of (protected header, unprotected header, signer); see `SignerEntry`
  /// (RFC 7515 §7.2.1).
  package static func sign(
    payload: [UInt8],
    signers: [(protectedHeader: JSONValue, unprotectedHeader: JSONValue?, signer: any Signer)]
  ) throws(JOSEError) -> JSONValue {
    try sign(
      payload: payload,
      signers: signers.map {
        SignerEntry(
          protectedHeader: $0.protectedHeader, unprotectedHeader: $0.unprotectedHeader,
          signer: $0.signer)
      })
  }
}
