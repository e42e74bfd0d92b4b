package import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON

/// The hash algorithms for Disclosure digests and `sd_hash`, named as in the IANA Named
/// Information Hash Algorithm registry (RFC 9901 §4.1.1).
public enum SDHashAlgorithm: String, Sendable, Hashable, CaseIterable {
  /// SHA-256, the default when `_sd_alg` is absent (RFC 9901 §4.1.1).
  case sha256 = "sha-256"
  /// SHA-384 (RFC 9901 §4.1.1, IANA Named Information registry).
  case sha384 = "sha-384"
  /// SHA-512 (RFC 9901 §4.1.1, IANA Named Information registry).
  case sha512 = "sha-512"

  /// Reads an `_sd_alg` value, refusing names this module does not implement (RFC 9901 §4.1.1).
  package init(name: String) throws(SDJWTError) {
    guard let algorithm = SDHashAlgorithm(rawValue: name) else {
      throw SDJWTError(.unsupportedHashAlgorithm, "_sd_alg \(name) is not supported")
    }
    self = algorithm
  }

  /// The underlying SHA-2 function (FIPS 180-4).
  package var digestAlgorithm: DigestAlgorithm {
    switch self {
    case .sha256: .sha256
    case .sha384: .sha384
    case .sha512: .sha512
    }
  }

  /// base64url of the hash of the ASCII text, as digests and `sd_hash` are formed (RFC 9901 §4.2.3, §4.3.1).
  package func base64URLDigest(ofASCII text: String) -> String {
    Base64URL.encode(digestAlgorithm.hash(Array(text.utf8)))
  }
}
