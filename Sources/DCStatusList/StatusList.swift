import DCErrors

/// The caps every Status List input is held to (docs/LIMITS.md, "Token Status List").
public enum StatusListLimits {
  /// The largest Status List Token read, in bytes (the JWT's text or the CWT's bytes): 4 MiB.
  ///
  /// A 1,000,000-entry list of random 8-bit statuses compresses to about 1 MB; a third more as
  /// base64url. Real lists are mostly zero and compress to kilobytes.
  public static let maximumTokenSize = 4 << 20
  /// The largest decompressed Status List, in bytes: 16 MiB, 134,217,728 entries at 1 bit or
  /// 16,777,216 at 8 bits. Far below 1 GiB, so a decompression bomb costs at most 16 MiB of
  /// memory and about 50 ms of inflating before it is refused.
  public static let maximumDecompressedSize = 16 << 20
}

/// The status of a Referenced Token (draft-ietf-oauth-status-list §7.1, "Status Types").
public enum Status: Sendable, Hashable {
  /// 0x00 VALID: the token is valid, correct or legal.
  case valid
  /// 0x01 INVALID: revoked, annulled, taken back, recalled or cancelled.
  case invalid
  /// 0x02 SUSPENDED: temporarily invalid, hanging or debarred from privilege.
  case suspended
  /// Any other value (0x03 and 0x0C-0x0F are application-specific, the rest reserved): kept as
  /// the number, never read as one of the three above.
  case applicationSpecific(UInt8)

  /// The status a raw value stands for (draft §7.1).
  public init(rawValue: UInt8) {
    switch rawValue {
    case 0: self = .valid
    case 1: self = .invalid
    case 2: self = .suspended
    default: self = .applicationSpecific(rawValue)
    }
  }

  /// The raw value in the list (draft §7.1).
  public var rawValue: UInt8 {
    switch self {
    case .valid: 0
    case .invalid: 1
    case .suspended: 2
    case .applicationSpecific(let value): value
    }
  }
}

/// A Status List (draft-ietf-oauth-status-list §4): a byte array holding one status of `bits`
/// bits per Referenced Token, decompressed.
///
/// Entry `i` occupies bits `i * bits ..< (i + 1) * bits` counted from the least significant bit
/// of byte 0 (draft §4.1: "the status of each Referenced Token is ... packed into bytes, starting
/// with the least significant bit"), so with 1 bit the entry `i` is bit `i % 8` of byte `i / 8`.
public struct StatusList: Sendable, Hashable {
  /// The number of bits per status (draft §4.1 `bits`: 1, 2, 4 or 8).
  public enum Bits: Int, Sendable, Hashable, CaseIterable {
    /// 1 bit: VALID or INVALID.
    case one = 1
    /// 2 bits: up to SUSPENDED and 0x03.
    case two = 2
    /// 4 bits: values 0-15.
    case four = 4
    /// 8 bits: values 0-255.
    case eight = 8

    /// The largest status this width holds.
    package var maximumValue: UInt8 { UInt8((1 << rawValue) - 1) }
  }

  /// The bits per status.
  public let bits: Bits
  /// The decompressed byte array (draft §4.1).
  public private(set) var bytes: [UInt8]

  /// A list of `count` entries, all VALID; the byte array is rounded up to whole bytes, so
  /// ``count`` may be larger than asked.
  public init(bits: Bits, count: Int) {
    self.bits = bits
    bytes = [UInt8](repeating: 0, count: (max(0, count) * bits.rawValue + 7) / 8)
  }

  /// A list over a decompressed byte array.
  public init(bits: Bits, bytes: [UInt8]) {
    self.bits = bits
    self.bytes = bytes
  }

  /// Reads the `bits` member (draft §4.1).
  ///
  /// - Throws: `StatusListErrorCode.unsupportedBits` for anything but 1, 2, 4 or 8.
  package static func bits(_ value: Int) throws(StatusListError) -> Bits {
    guard let bits = Bits(rawValue: value) else {
      throw StatusListError(.unsupportedBits, "bits must be 1, 2, 4 or 8, not \(value)")
    }
    return bits
  }

  /// A list from its zlib-compressed byte array (draft §4.1 `lst`), decompressed under a cap.
  ///
  /// - Throws: ``StatusListErrorCode/tooLarge`` when it decompresses past `maximumSize`;
  ///   `StatusListErrorCode.decompressionFailed` when it is not a zlib stream.
  public init(
    bits: Bits, compressed: [UInt8],
    maximumSize: Int = StatusListLimits.maximumDecompressedSize
  ) throws(StatusListError) {
    self.init(bits: bits, bytes: try Zlib.decompress(compressed, maximumSize: maximumSize))
  }

  /// The number of entries: every whole `bits`-wide slot in the byte array.
  public var count: Int { bytes.count * 8 / bits.rawValue }

  /// The byte array compressed with zlib, as `lst` carries it (draft §4.1).
  public func compressed() throws(StatusListError) -> [UInt8] {
    try Zlib.compress(bytes)
  }

  /// The status at `index` (draft §4.1 bit order; §8.3 step 5).
  ///
  /// - Throws: ``StatusListErrorCode/indexOutOfRange`` when `index` is negative or not below
  ///   ``count``.
  public func status(at index: Int) throws(StatusListError) -> Status {
    guard index >= 0, index < count else {
      throw StatusListError(
        .indexOutOfRange, "index \(index) is outside the list of \(count) entries")
    }
    return Status(rawValue: rawStatus(at: index))
  }

  /// Sets the status at `index`.
  ///
  /// - Throws: ``StatusListErrorCode/indexOutOfRange``, or
  ///   `StatusListErrorCode.invalidStatus` when the value does not fit in ``bits``.
  public mutating func setStatus(_ status: Status, at index: Int) throws(StatusListError) {
    guard index >= 0, index < count else {
      throw StatusListError(
        .indexOutOfRange, "index \(index) is outside the list of \(count) entries")
    }
    guard status.rawValue <= bits.maximumValue else {
      throw StatusListError(
        .invalidStatus, "status \(status.rawValue) does not fit in \(bits.rawValue) bits")
    }
    let width = bits.rawValue
    let bit = index * width
    let shift = bit % 8
    let mask = bits.maximumValue << shift
    bytes[bit / 8] = (bytes[bit / 8] & ~mask) | (status.rawValue << shift)
  }

  /// Every entry's status, in index order (for display; a long list gives a long array).
  public var statuses: [Status] {
    (0..<count).map { Status(rawValue: rawStatus(at: $0)) }
  }

  /// How many entries hold each raw value.
  public var counts: [UInt8: Int] {
    var counts: [UInt8: Int] = [:]
    if bits == .eight {
      for byte in bytes { counts[byte, default: 0] += 1 }
      return counts
    }
    for index in 0..<count { counts[rawStatus(at: index), default: 0] += 1 }
    return counts
  }

  /// The raw value of an index already checked to be in range.
  func rawStatus(at index: Int) -> UInt8 {
    let bit = index * bits.rawValue
    return (bytes[bit / 8] >> (bit % 8)) & bits.maximumValue
  }
}
