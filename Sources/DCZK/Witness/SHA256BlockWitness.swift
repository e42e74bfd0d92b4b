import DCCrypto

/// The intermediate values of SHA-256 (FIPS 180-4 §6.2.2) that the hash circuit checks, block by
/// block: message-schedule words W16…W63, the working variables e and a after each of the 64
/// rounds, and the chaining value after the block (longfellow-zk
/// `lib/circuits/sha/flatsha256_witness.h`, BlockWitness). No backend exposes them, so the
/// compression function's round values are computed here; the final chaining value of every
/// message is checked against DCCrypto's SHA-256 before it is used.
struct SHA256BlockWitness {
  var schedule = [UInt32](repeating: 0, count: 48)
  var e = [UInt32](repeating: 0, count: 64)
  var a = [UInt32](repeating: 0, count: 64)
  var chaining = [UInt32](repeating: 0, count: 8)

  /// FIPS 180-4 §4.2.2.
  static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7,
    0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc,
    0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351,
    0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e,
    0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585,
    0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f,
    0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  /// FIPS 180-4 §5.3.3.
  static let initialChaining: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
    0x5be0_cd19,
  ]

  /// One compression (FIPS 180-4 §6.2.2 steps 1–4), recording what the circuit checks.
  init(block: ArraySlice<UInt8>, previous: [UInt32]) {
    var w = [UInt32](repeating: 0, count: 64)
    let base = block.startIndex
    for t in 0..<16 {
      w[t] = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(block[base + 4 * t + $1]) }
    }
    for t in 16..<64 {
      let s0 = w[t - 15].rotatedRight(7) ^ w[t - 15].rotatedRight(18) ^ (w[t - 15] >> 3)
      let s1 = w[t - 2].rotatedRight(17) ^ w[t - 2].rotatedRight(19) ^ (w[t - 2] >> 10)
      w[t] = s1 &+ w[t - 7] &+ s0 &+ w[t - 16]
      schedule[t - 16] = w[t]
    }
    var v = previous
    for t in 0..<64 {
      let sum1 = v[4].rotatedRight(6) ^ v[4].rotatedRight(11) ^ v[4].rotatedRight(25)
      let choose = (v[4] & v[5]) ^ (~v[4] & v[6])
      let t1 = v[7] &+ sum1 &+ choose &+ Self.roundConstants[t] &+ w[t]
      let sum0 = v[0].rotatedRight(2) ^ v[0].rotatedRight(13) ^ v[0].rotatedRight(22)
      let majority = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2])
      v = [t1 &+ sum0 &+ majority, v[0], v[1], v[2], v[3] &+ t1, v[4], v[5], v[6]]
      e[t] = v[4]
      a[t] = v[0]
    }
    chaining = (0..<8).map { previous[$0] &+ v[$0] }
  }

  /// The message padded (FIPS 180-4 §5.1.1) and zero-filled to `maxBlocks` blocks, every block's
  /// witness (the blocks after the padding are hashed on, as the circuit does), and the number of
  /// blocks the message takes (`transform_and_witness_message`).
  static func witness(message: [UInt8], maxBlocks: Int) throws(ZKError)
    -> (padded: [UInt8], blocks: [SHA256BlockWitness], used: Int)
  {
    let used = (message.count + 9 + 63) / 64
    guard used <= maxBlocks else {
      throw ZKError(
        .mdocUnsupported,
        "\(message.count) bytes take \(used) SHA-256 blocks; the circuit has \(maxBlocks)")
    }
    var padded = message + [0x80]
    padded += [UInt8](repeating: 0, count: (used * 64 - 8) - padded.count)
    let bitLength = UInt64(message.count) * 8
    padded += (0..<8).map { UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * $0)) }
    padded += [UInt8](repeating: 0, count: maxBlocks * 64 - padded.count)
    var blocks: [SHA256BlockWitness] = []
    var chaining = initialChaining
    for index in 0..<maxBlocks {
      let block = SHA256BlockWitness(
        block: padded[index * 64..<(index + 1) * 64], previous: chaining)
      chaining = block.chaining
      blocks.append(block)
    }
    let digest = blocks[used - 1].chaining.flatMap { word in
      (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) }
    }
    guard digest == SHA256.hash(data: message) else {
      throw ZKError(.mdocUnsupported, "the SHA-256 witness does not reach the backend's digest")
    }
    return (padded, blocks, used)
  }
}

extension UInt32 {
  fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { self >> count | self << (32 - count) }
}
