public import DCCBOR
public import DCCrypto

/// A COSE_Sign1 message (RFC 9052 §4.2), tagged (18) or untagged, attached or detached payload.
///
/// The protected header bytes and the payload are kept as received, and the signature is
/// checked over a `Sig_structure` built from them (never from a re-encoding).
public struct COSESign1: Sendable, Hashable {
  /// The CBOR tag of a COSE_Sign1 (RFC 9052 §2).
  package static let tag: UInt64 = 18

  /// The header buckets.
  public let headers: COSEHeaders
  /// The payload, or nil when it is detached (carried elsewhere, RFC 9052 §2).
  public let payload: [UInt8]?
  /// The raw `r || s` ECDSA signature (RFC 9053 §2.1).
  public let signature: [UInt8]

  /// Assembles a message from its parts.
  package init(headers: COSEHeaders, payload: [UInt8]?, signature: [UInt8]) {
    self.headers = headers
    self.payload = payload
    self.signature = signature
  }

  /// Reads a COSE_Sign1 from CBOR, tagged or untagged.
  public init(cbor: CBOR) throws(COSEError) {
    let body = try COSEMessageBody(
      cbor: cbor, tag: Self.tag, name: "COSE_Sign1", lastMember: "signature")
    headers = body.headers
    payload = body.payload
    signature = body.last
  }

  /// Reads a COSE_Sign1 from its encoded bytes.
  public init(bytes: [UInt8]) throws(COSEError) {
    let decoded: CBOR
    do {
      decoded = try CBOR.decode(bytes)
    } catch {
      throw COSEError(error, "COSE_Sign1")
    }
    try self.init(cbor: decoded)
  }

  /// The message as CBOR; ISO 18013-5 uses the untagged form.
  public func cbor(tagged: Bool = false) -> CBOR {
    COSEMessageBody.cbor(
      headers: headers, payload: payload, last: signature, tag: tagged ? Self.tag : nil)
  }

  /// `Sig_structure = ["Signature1", body_protected, external_aad, payload]` (RFC 9052 §4.4).
  package static func toBeSigned(protectedBytes: [UInt8], externalAAD: [UInt8], payload: [UInt8])
    -> [UInt8]
  {
    CBOR.array([
      "Signature1", .byteString(protectedBytes), .byteString(externalAAD), .byteString(payload),
    ]).encoded()
  }

  /// Signs a payload. The algorithm follows the signer's curve and goes in the protected header.
  ///
  /// - Parameters:
  ///   - payload: the bytes signed, as the `payload` of `Sig_structure` (RFC 9052 §4.4).
  ///   - detached: leave the payload out of the message (ISO 18013-5 DeviceAuth and ReaderAuth).
  ///   - protected: protected header parameters; `alg` is added (or must already match the
  ///     signer's curve).
  ///   - unprotected: unprotected header parameters, e.g. `x5chain` (label 33).
  ///   - externalAAD: application data signed but not carried (`external_aad`); empty in
  ///     ISO 18013-5.
  ///   - signer: the private key, or hardware key, that signs `Sig_structure`.
  /// - Returns: the message, its signature in the fixed-size `r || s` form of RFC 9053 §2.1.
  /// - Throws: `COSEError.algorithmKeyMismatch` when the protected `alg` does not fit the
  ///   signer's curve; `COSEError.invalidKey` when the signer fails.
  public static func sign(
    payload: [UInt8], detached: Bool = false, protected: CBORMap = CBORMap(),
    unprotected: CBORMap = CBORMap(),
    externalAAD: [UInt8] = [], signer: any Signer
  ) throws(COSEError) -> COSESign1 {
    let algorithm = COSEAlgorithm(signingWith: signer.curve)
    var protected = protected
    if let existing = protected[key: COSEHeaderLabel.algorithm], existing.int != algorithm.rawValue
    {
      throw COSEError(
        .algorithmKeyMismatch,
        "protected alg \(existing) does not fit a \(signer.curve.rawValue) key")
    }
    protected[key: COSEHeaderLabel.algorithm] = CBOR(algorithm.rawValue)
    let headers = COSEHeaders(protected: protected, unprotected: unprotected)
    let tbs = toBeSigned(
      protectedBytes: headers.bodyProtected, externalAAD: externalAAD, payload: payload)
    let signature: ECDSASignature
    do {
      signature = try signer.signature(for: tbs)
    } catch {
      throw COSEError(.invalidKey, "signing failed: \(error)", underlying: error)
    }
    return COSESign1(
      headers: headers, payload: detached ? nil : payload, signature: signature.rawRepresentation)
  }

  /// Verifies the signature with a public key.
  ///
  /// - Parameters:
  ///   - publicKey: the signer's public key, on the curve the protected `alg` names.
  ///   - detachedPayload: the payload when the message carries none; must be nil otherwise.
  ///   - externalAAD: the `external_aad` the signer used; empty in ISO 18013-5.
  /// - Throws: `COSEError` saying which check failed; returns only when the signature verifies.
  public func verify(
    publicKey: ECPublicKey, detachedPayload: [UInt8]? = nil, externalAAD: [UInt8] = []
  ) throws(COSEError) {
    guard let algorithm = headers.algorithm else {
      throw COSEError(
        .unsupportedAlgorithm, "COSE_Sign1 has no supported alg (ES256, ES384, ES512)")
    }
    guard let curve = algorithm.curve else {
      throw COSEError(.unsupportedAlgorithm, "\(algorithm) is not a signature algorithm")
    }
    guard curve == publicKey.curve else {
      throw COSEError(
        .algorithmKeyMismatch,
        "\(algorithm) needs a \(curve.rawValue) key, got \(publicKey.curve.rawValue)")
    }
    let content = try COSEMessageBody.content(attached: payload, detached: detachedPayload)
    guard let sig = try? ECDSASignature(rawRepresentation: signature, curve: curve) else {
      throw COSEError(
        .invalidSignature,
        "signature must be \(2 * curve.coordinateByteCount) bytes for \(algorithm)")
    }
    let tbs = Self.toBeSigned(
      protectedBytes: headers.bodyProtected, externalAAD: externalAAD, payload: content)
    guard publicKey.isValidSignature(sig, for: tbs, digest: algorithm.digest) else {
      throw COSEError(.invalidSignature, "COSE_Sign1 signature does not verify")
    }
  }
}
