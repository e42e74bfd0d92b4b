import DCCrypto

/// The single-step key derivation JWE uses for ECDH-ES (NIST SP 800-56A §5.8.2.1.1 with
/// SHA-256, parameterised as RFC 7518 §4.6.2 describes).
package enum ConcatKDF {
  /// Derives `keyDataLength` bits (at most 65536) from a shared secret `Z` with SHA-256 (RFC 7518 §4.6.2).
  ///
  /// - Parameters:
  ///   - sharedSecret: `Z`, the ECDH output.
  ///   - keyDataLength: the key length in bits, a positive multiple of 8 (`keydatalen`).
  ///   - algorithmID: for direct ECDH-ES, the `enc` value (RFC 7518 §4.6.2).
  ///   - partyUInfo: `apu` decoded, or empty.
  ///   - partyVInfo: `apv` decoded, or empty.
  package static func deriveKey(
    sharedSecret: [UInt8], keyDataLength: Int, algorithmID: String,
    partyUInfo: [UInt8] = [], partyVInfo: [UInt8] = []
  ) throws(JOSEError) -> [UInt8] {
    guard keyDataLength > 0, keyDataLength % 8 == 0, keyDataLength <= 1 << 16 else {
      throw JOSEError(.cryptoFailure, "Concat KDF key length \(keyDataLength) is not whole bytes")
    }
    // RFC 7518 §4.6.2: each OtherInfo field is a 32-bit big-endian length then its bytes;
    // SuppPubInfo is keydatalen as 32 bits; SuppPrivInfo is empty.
    var otherInfo = lengthPrefixed(Array(algorithmID.utf8))
    otherInfo += lengthPrefixed(partyUInfo)
    otherInfo += lengthPrefixed(partyVInfo)
    otherInfo += bigEndian32(UInt32(keyDataLength))
    let byteCount = keyDataLength / 8
    var derived: [UInt8] = []
    var counter: UInt32 = 1
    // SP 800-56A §5.8.2.1.1: K(i) = H(counter || Z || OtherInfo), counter from 1, concatenated.
    while derived.count < byteCount {
      derived += SHA256.hash(data: bigEndian32(counter) + sharedSecret + otherInfo)
      counter += 1
    }
    return Array(derived.prefix(byteCount))
  }

  private static func bigEndian32(_ value: UInt32) -> [UInt8] {
    [
      UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
      UInt8(value & 0xFF),
    ]
  }

  private static func lengthPrefixed(_ data: [UInt8]) -> [UInt8] {
    bigEndian32(UInt32(data.count)) + data
  }
}
