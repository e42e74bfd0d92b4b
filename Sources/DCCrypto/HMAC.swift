/// HMAC (RFC 2104) over a SHA-2 digest.
public enum HMAC {
  /// Computes the authentication code of data under key.
  public static func authenticationCode(
    _ algorithm: DigestAlgorithm, for data: some Collection<UInt8>, key: some Collection<UInt8>
  ) -> [UInt8] {
    Backend.hmac(algorithm, key: Array(key), data: Array(data))
  }

  /// Checks an authentication code in constant time.
  public static func isValidAuthenticationCode(
    _ code: some Collection<UInt8>, _ algorithm: DigestAlgorithm,
    for data: some Collection<UInt8>, key: some Collection<UInt8>
  ) -> Bool {
    constantTimeEquals(Array(code), authenticationCode(algorithm, for: data, key: key))
  }
}

/// Compares two byte strings without an early exit on the first difference.
///
/// Lengths are not secret: a length mismatch returns false at once.
package func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
  guard a.count == b.count else { return false }
  var diff: UInt8 = 0
  for i in a.indices { diff |= a[i] ^ b[i] }
  return diff == 0
}
