import DCCBOR
import DCCOSE
public import DCErrors

/// An error from the mdoc layer (ISO/IEC 18013-5): an extensible code, a reason, and the error it
/// wraps.
public struct MdocError: CausedError {
  /// What kind of failure this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// A structure does not match its CDDL (ISO 18013-5 §8.3.2.1.2).
    public static let malformed = Code("malformed")
    /// The MSO is not signed by the document signer's key, or is not signed at all.
    public static let invalidIssuerSignature = Code("invalidIssuerSignature")
    /// The document signer does not chain to a trusted IACA.
    public static let untrustedIssuer = Code("untrustedIssuer")
    /// A presented element's digest is not the one the MSO holds (§9.1.2.5).
    public static let digestMismatch = Code("digestMismatch")
    /// The document's docType is not the MSO's, or not the requested one.
    public static let docTypeMismatch = Code("docTypeMismatch")
    /// The MSO is not valid yet (validFrom is in the future).
    public static let notYetValid = Code("notYetValid")
    /// The MSO has expired (validUntil is in the past).
    public static let expired = Code("expired")
    /// The device signature or MAC over DeviceAuthentication does not verify (§9.1.3).
    package static let invalidDeviceSignature = Code("invalidDeviceSignature")
    /// A reader authentication signature does not verify (§9.1.4).
    package static let invalidReaderSignature = Code("invalidReaderSignature")
    /// The MSO uses a digest algorithm this library does not support.
    package static let unsupportedDigestAlgorithm = Code("unsupportedDigestAlgorithm")
    /// A device-signed element is not authorized by the MSO's keyAuthorizations (§9.1.2.4).
    package static let unauthorizedElement = Code("unauthorizedElement")
    /// An element was returned that was not requested.
    package static let notRequested = Code("notRequested")
    /// A signing key failed to sign.
    public static let signingFailed = Code("signingFailed")
  }

  /// What kind of failure this is.
  public let code: Code
  /// A human-readable explanation.
  public let reason: String

  /// The error this one wraps (a lower module's error, kept as a value), or nil for a root cause.
  public let underlying: (any Error & Sendable)?
  /// The file (`#fileID`) where the error was created.
  public let file: String
  /// The line where the error was created.
  public let line: UInt

  /// Creates an error with a code and a reason.
  public init(
    _ code: Code, _ reason: String, underlying: (any Error & Sendable)? = nil,
    file: String = #fileID, line: UInt = #line
  ) {
    self.code = code
    self.reason = reason
    self.underlying = underlying
    self.file = file
    self.line = line
  }

  init(_ error: CBORError, _ context: String, file: String = #fileID, line: UInt = #line) {
    self.init(.malformed, "\(context): \(error.reason)", underlying: error, file: file, line: line)
  }

  init(_ error: COSEError, _ context: String, file: String = #fileID, line: UInt = #line) {
    self.init(
      error.code == .invalidSignature ? .invalidIssuerSignature : .malformed,
      "\(context): \(error.reason)", underlying: error, file: file, line: line)
  }

  /// `MdocError.<code>: <reason>`.
  public var description: String { causedDescription }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String { causedDebugDescription }
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
