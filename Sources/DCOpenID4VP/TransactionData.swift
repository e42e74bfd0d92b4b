import DCCrypto
import DCEncoding
import DCErrors
import DCJOSE
package import DCJSON

/// One `transaction_data` entry (OpenID4VP 1.0 §5.1, §8.4): base64url JSON with a `type` and the
/// Credential Query ids it applies to, kept as received because its hash is what gets signed.
package struct TransactionData: Sendable, Hashable {
  /// The base64url string exactly as received.
  package let encoded: String
  /// The decoded JSON object.
  package let json: JSONValue
  /// `type`, the transaction data type.
  package let type: String
  /// `credential_ids`: the Credential Queries whose presentations must bind this entry.
  package let credentialIDs: [String]

  /// Decodes and checks one entry (OpenID4VP 1.0 §5.1).
  ///
  /// - Throws: `unsupportedTransactionData` when it is not base64url JSON, lacks `type` or a
  ///   non-empty `credential_ids`, names an unknown Credential Query, or allows no `sha-256`
  ///   hashing (§8.4).
  package init(encoded: String, credentialQueryIDs: Set<String>) throws(OpenID4VPError) {
    func notBase64URLJSON(_ error: DCError<some DCErrorCode>) -> OpenID4VPError {
      OpenID4VPError(
        .unsupportedTransactionData,
        "transaction_data entry is not base64url JSON: \(error.reason)", underlying: error)
    }
    let bytes: [UInt8]
    do { bytes = try Base64URL.decode(encoded) } catch { throw notBase64URLJSON(error) }
    let json: JSONValue
    do { json = try JSONValue(parsing: bytes) } catch { throw notBase64URLJSON(error) }
    guard case .object = json, let type = json["type"]?.string else {
      throw OpenID4VPError(
        .unsupportedTransactionData, "transaction_data entry needs a string type")
    }
    guard let ids = json["credential_ids"]?.array, !ids.isEmpty else {
      throw OpenID4VPError(
        .unsupportedTransactionData, "transaction_data credential_ids must be a non-empty array")
    }
    var credentialIDs: [String] = []
    for id in ids {
      guard let id = id.string, credentialQueryIDs.contains(id) else {
        throw OpenID4VPError(
          .unsupportedTransactionData,
          "transaction_data credential_ids names \(id) which is not a Credential Query id")
      }
      credentialIDs.append(id)
    }
    if let algorithms = json["transaction_data_hashes_alg"] {
      guard let list = algorithms.array, list.contains(.string(Self.hashAlgorithm)) else {
        throw OpenID4VPError(
          .unsupportedTransactionData, "transaction_data_hashes_alg does not allow sha-256")
      }
    }
    self.encoded = encoded
    self.json = json
    self.type = type
    self.credentialIDs = credentialIDs
  }

  /// The hash algorithm this module uses, the default (OpenID4VP 1.0 §8.4).
  package static let hashAlgorithm = "sha-256"

  /// base64url(SHA-256(the entry as received)), for `transaction_data_hashes` (OpenID4VP 1.0 §8.4).
  package var hash: String { Base64URL.encode(SHA256.hash(data: Array(encoded.utf8))) }
}
