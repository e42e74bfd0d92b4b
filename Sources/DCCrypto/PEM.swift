import Foundation

/// A PEM document (RFC 7468): a label and the DER bytes between its armour lines.
public struct PEMDocument: Sendable, Hashable {
  /// The label, such as `CERTIFICATE`, `PRIVATE KEY` or `PUBLIC KEY`.
  public let label: String
  /// The decoded DER bytes.
  public let derBytes: [UInt8]

  /// Wraps DER bytes under a label.
  public init(label: String, derBytes: [UInt8]) {
    self.label = label
    self.derBytes = derBytes
  }

  /// Parses exactly one PEM document; text around it is not allowed (RFC 7468 §2 strict form,
  /// with whitespace tolerated between lines).
  public init(pemString: String) throws(CryptoError) {
    let documents = try PEMDocument.parseAll(pemString)
    guard documents.count == 1 else {
      throw CryptoError(.invalidPEM, "expected one PEM document, found \(documents.count)")
    }
    self = documents[0]
  }

  /// Parses every PEM document in text, in order (a certificate chain file, say).
  public static func parseAll(_ text: String) throws(CryptoError) -> [PEMDocument] {
    var documents = [PEMDocument]()
    var label: String?
    var body = ""
    for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      if line.isEmpty { continue }
      if let open = label {
        if line.hasPrefix("-----END ") {
          guard line == "-----END \(open)-----" else {
            throw CryptoError(.invalidPEM, "PEM END line does not match BEGIN \(open)")
          }
          guard let data = Data(base64Encoded: body), !data.isEmpty else {
            throw CryptoError(.invalidPEM, "PEM \(open) body is not valid base64")
          }
          documents.append(PEMDocument(label: open, derBytes: Array(data)))
          label = nil
          body = ""
        } else {
          guard !line.hasPrefix("-----") else {
            throw CryptoError(.invalidPEM, "unexpected armour line inside PEM \(open)")
          }
          body += line
        }
      } else if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----"), line.count > 16 {
        label = String(line.dropFirst(11).dropLast(5))
      } else {
        throw CryptoError(.invalidPEM, "text outside a PEM document")
      }
    }
    if let open = label { throw CryptoError(.invalidPEM, "PEM \(open) has no END line") }
    guard !documents.isEmpty else { throw CryptoError(.invalidPEM, "no PEM document found") }
    return documents
  }

  /// The document as PEM text, 64 base64 characters a line.
  public var pemString: String {
    let encoded = Data(derBytes).base64EncodedString(options: [
      .lineLength64Characters, .endLineWithLineFeed,
    ])
    return "-----BEGIN \(label)-----\n\(encoded)\n-----END \(label)-----\n"
  }
}
