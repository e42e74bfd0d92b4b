import Foundation

/// The most bytes `dcwallet` reads from one input, a file or standard input, before it refuses
/// the input without parsing it (docs/LIMITS.md, "Input size").
///
/// Input is read in chunks of at most ``chunkSize`` bytes and refused as soon as it passes the
/// limit, so an endless stream (`/dev/zero`, a runaway pipe) costs at most the limit plus one
/// byte, never the whole stream.
package struct InputLimit: Sendable, Hashable {
  /// The most bytes accepted; one more is refused.
  package let bytes: Int
  /// What the input is, for the error ("a request").
  package let kind: String

  /// A DC API request (`respond`, `inspect --request`, `verifier verify --request`) and a DCQL
  /// query: 256 KiB. A request is a few kilobytes (an Annex C DeviceRequest with ReaderAuth and
  /// its certificate chain, a signed OpenID4VP request object with an `x5c` chain and a DCQL
  /// query are 2 to 15 KiB); this leaves room for long chains and multi-signed requests and
  /// refuses megabytes.
  package static let request = InputLimit(bytes: 256 * 1024, kind: "a request")

  /// An issued credential to import (an mdoc as CBOR or base64url text, an SD-JWT): 1 MiB. A
  /// credential with a portrait is tens to hundreds of kilobytes (an ICAO portrait is about
  /// 15 to 100 KiB of JPEG); this holds one with a large portrait and its encodings.
  package static let credential = InputLimit(bytes: 1024 * 1024, kind: "a credential")

  /// A response to verify or open (`verifier verify --response`, `inspect --key`): 2 MiB. A
  /// response carries the credentials it discloses, encrypted and often base64url-encoded (a
  /// third larger); this holds a credential at the import limit, or several typical ones.
  package static let response = InputLimit(bytes: 2 * 1024 * 1024, kind: "a response")

  /// Whatever `dcwallet inspect` is given (a request, a response, a credential, a
  /// certificate): the largest of those, 2 MiB, since the kind is known only after parsing.
  package static let inspected = InputLimit(bytes: 2 * 1024 * 1024, kind: "an input to inspect")

  /// A Longfellow circuit file (`verifier request|verify --zk-circuit`): 16 MiB, the circuit
  /// limit of the verifier; published circuits are 210 to 340 KiB compressed.
  package static let circuit = InputLimit(bytes: 16 << 20, kind: "a circuit")
  /// A trusted list to import (`trust import-list`, `verifier verify --trusted-list`, a file
  /// or a URL): 8 MiB, the list parsers' own bound (docs/LIMITS.md, "Trusted lists"). Published
  /// national TSLs run from tens of kilobytes to a few megabytes.
  package static let trustedList = InputLimit(bytes: 8 * 1024 * 1024, kind: "a trusted list")

  /// Every other file a command reads (certificates, PEM keys, verifier state): 1 MiB; each is
  /// a few kilobytes.
  package static let file = InputLimit(bytes: 1024 * 1024, kind: "an input file")

  /// The most bytes one read asks for.
  static let chunkSize = 64 * 1024

  /// The limit in words: "256 KiB (262144 bytes)".
  var described: String {
    let size =
      bytes % (1024 * 1024) == 0 ? "\(bytes / (1024 * 1024)) MiB" : "\(bytes / 1024) KiB"
    return "\(size) (\(bytes) bytes)"
  }

  /// The failure for an input past the limit.
  func refusal(_ source: String) -> CommandFailure {
    CommandFailure(
      "\(source) is larger than \(described), the most dcwallet reads for \(kind) (see docs/LIMITS.md)"
    )
  }

  /// Reads handle to its end, refusing it once it passes the limit; source names it in errors.
  func read(_ handle: FileHandle, source: String) throws -> [UInt8] {
    var bytes: [UInt8] = []
    while true {
      // One byte past the limit is enough to know the input is too large.
      let wanted = min(Self.chunkSize, self.bytes + 1 - bytes.count)
      let chunk: Data?
      do {
        chunk = try handle.read(upToCount: wanted)
      } catch {
        throw CommandFailure("cannot read \(source): \(Files.why(error))")
      }
      guard let chunk, !chunk.isEmpty else { return bytes }
      bytes.append(contentsOf: chunk)
      if bytes.count > self.bytes { throw refusal(source) }
    }
  }
}
