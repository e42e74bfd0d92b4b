import DCCBOR
import DCCOSE
@_exported public import DCErrors

/// An error from the mdoc layer (ISO/IEC 18013-5): an extensible code, a reason, and the error it
/// wraps.
public typealias MdocError = DCError<MdocErrorCode>

/// What kind of failure this is.
public struct MdocErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// A structure does not match its CDDL (ISO 18013-5 §8.3.2.1.2).
  public static let malformed = Self("malformed")
  /// The MSO is not signed by the document signer's key, or is not signed at all.
  public static let invalidIssuerSignature = Self("invalidIssuerSignature")
  /// The document signer does not chain to a trusted IACA.
  public static let untrustedIssuer = Self("untrustedIssuer")
  /// A presented element's digest is not the one the MSO holds (§9.1.2.5).
  public static let digestMismatch = Self("digestMismatch")
  /// The document's docType is not the MSO's, or not the requested one.
  public static let docTypeMismatch = Self("docTypeMismatch")
  /// The MSO is not valid yet (validFrom is in the future).
  public static let notYetValid = Self("notYetValid")
  /// The MSO has expired (validUntil is in the past).
  public static let expired = Self("expired")
  /// The device signature or MAC over DeviceAuthentication does not verify (§9.1.3).
  public static let invalidDeviceSignature = Self("invalidDeviceSignature")
  /// A reader authentication signature does not verify (§9.1.4).
  public static let invalidReaderSignature = Self("invalidReaderSignature")
  /// The MSO uses a digest algorithm this library does not support.
  package static let unsupportedDigestAlgorithm = Self("unsupportedDigestAlgorithm")
  /// A device-signed element is not authorized by the MSO's keyAuthorizations (§9.1.2.4).
  package static let unauthorizedElement = Self("unauthorizedElement")
  /// An element was returned that was not requested.
  package static let notRequested = Self("notRequested")
  /// A signing key failed to sign.
  public static let signingFailed = Self("signingFailed")
}

extension DCError where Code == MdocErrorCode {
  init(_ error: CBORError, _ context: String, file: String = #fileID, line: UInt = #line) {
    self.init(.malformed, "\(context): \(error.reason)", underlying: error, file: file, line: line)
  }

  init(_ error: COSEError, _ context: String, file: String = #fileID, line: UInt = #line) {
    self.init(
      error.code == .invalidSignature ? .invalidIssuerSignature : .malformed,
      "\(context): \(error.reason)", underlying: error, file: file, line: line)
  }
}

/// Runs a CBOR-reading body and reports its failure as a malformed mdoc structure.
@inline(__always)
func reading<T>(_ context: String, _ body: () throws(CBORError) -> T) throws(MdocError) -> T {
  do {
    return try body()
  } catch {
    throw MdocError(error, context)
  }
}

/// The encoder for every mdoc structure built here: maps keep the CDDL order they were built in
/// (ISO 18013-5 does not require RFC 8949 §4.2.1 ordering), and decoded maps keep the order they
/// arrived in, so a decoded structure re-encodes to its original bytes.
let mdocEncoder = CBOREncoder(mapOrder: .preserved)

extension CBOR {
  /// The ISO 18013-5 encoding of this value (see `mdocEncoder`).
  var mdocEncoded: [UInt8] { mdocEncoder.encode(self) }
}

extension EncodedCBOR {
  /// Encodes an item with the mdoc encoder, keeping bytes and value (for `#6.24` wrapping).
  init(mdoc value: CBOR) { self.init(encoding: value, with: mdocEncoder) }
}

extension CBORWriter {
  /// `#6.24(bstr .cbor item)` for an item written by `body` (RFC 8949 §3.4.5.1): the item is
  /// written once, then wrapped; `capacity` is about the item's size.
  static func tag24(capacity: Int, _ body: (inout CBORWriter) -> Void) -> [UInt8] {
    var inner = CBORWriter(capacity: capacity)
    body(&inner)
    var outer = CBORWriter(capacity: inner.bytes.count + 12)
    outer.tag24(inner.bytes)
    return outer.bytes
  }
}
