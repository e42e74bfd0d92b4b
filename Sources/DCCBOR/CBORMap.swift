/// The ordered key/value pairs of a CBOR map, kept in the order received or inserted.
///
/// RFC 8949 §3.1 (major type 5) and §5.6 (keys are unique). Equality is order-sensitive;
/// the deterministic encoder (§4.2.1) sorts keys, so differently ordered maps encode alike.
public struct CBORMap: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  private var keyStorage: [CBOR]
  private var valueStorage: [CBOR]
  /// Positions by unwrapped key, kept only for maps large enough that scanning would be slow.
  private var positions: [CBOR: Int]?

  private static let indexThreshold = 64

  /// Creates an empty map (RFC 8949 §3.1).
  public init() {
    keyStorage = []
    valueStorage = []
    positions = nil
  }

  /// Creates a map from pairs in order; a repeated key replaces the earlier value (RFC 8949 §5.6).
  public init(_ pairs: some Sequence<(CBOR, CBOR)>) {
    self.init()
    for (key, value) in pairs { self[key: key] = value }
  }

  /// Creates a map from a literal, keeping the written order (RFC 8949 §3.1).
  public init(dictionaryLiteral elements: (CBOR, CBOR)...) {
    self.init(elements)
  }

  /// Pairs already known to have unique keys, as produced by the decoder (RFC 8949 §5.6); also
  /// for package readers that decode a known structure directly and check uniqueness themselves.
  package init(uncheckedKeys keys: [CBOR], values: [CBOR]) {
    keyStorage = keys
    valueStorage = values
    positions = nil
    rebuildPositions()
  }

  private mutating func rebuildPositions() {
    guard keyStorage.count > Self.indexThreshold else {
      positions = nil
      return
    }
    var table: [CBOR: Int] = [:]
    table.reserveCapacity(keyStorage.count)
    for (position, key) in keyStorage.enumerated() where table[key.unwrapped] == nil {
      table[key.unwrapped] = position
    }
    positions = table
  }

  /// Compares the pairs in order (RFC 8949 §3.1).
  public static func == (lhs: CBORMap, rhs: CBORMap) -> Bool {
    lhs.keyStorage == rhs.keyStorage && lhs.valueStorage == rhs.valueStorage
  }

  /// Hashes the pairs in order (RFC 8949 §3.1).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(keyStorage)
    hasher.combine(valueStorage)
  }

  /// The number of pairs (RFC 8949 §3.1).
  public var count: Int { keyStorage.count }

  /// Whether the map has no pairs (RFC 8949 §3.1).
  public var isEmpty: Bool { keyStorage.isEmpty }

  /// The keys in order (RFC 8949 §3.1).
  public var keys: [CBOR] { keyStorage }

  /// The values in key order (RFC 8949 §3.1).
  public var values: [CBOR] { valueStorage }

  /// The pairs in order (RFC 8949 §3.1).
  public var pairs: [(key: CBOR, value: CBOR)] {
    Array(zip(keyStorage, valueStorage)).map { (key: $0.0, value: $0.1) }
  }

  private func index(of key: CBOR) -> Int? {
    let wanted = key.unwrapped
    if let positions { return positions[wanted] }
    return keyStorage.firstIndex { stored in
      if case .encoded = stored { return stored.unwrapped == wanted }
      return stored == wanted
    }
  }

  /// Gets the value for a key, or sets it in place (appending a new key, removing on nil) (RFC 8949 §5.6).
  public subscript(key key: CBOR) -> CBOR? {
    get {
      guard let i = index(of: key) else { return nil }
      return valueStorage[i]
    }
    set {
      if let i = index(of: key) {
        if let newValue {
          valueStorage[i] = newValue
        } else {
          keyStorage.remove(at: i)
          valueStorage.remove(at: i)
          rebuildPositions()
        }
      } else if let newValue {
        keyStorage.append(key)
        valueStorage.append(newValue)
        if positions != nil {
          positions?[key.unwrapped] = keyStorage.count - 1
        } else if keyStorage.count > Self.indexThreshold {
          rebuildPositions()
        }
      }
    }
  }

  /// Gets or sets the value for a text string key (RFC 8949 §5.6).
  public subscript(_ key: String) -> CBOR? {
    get { self[key: .textString(key)] }
    set { self[key: .textString(key)] = newValue }
  }

  /// Gets or sets the value for an integer key, as used for COSE labels (RFC 8949 §5.6).
  public subscript(_ key: Int) -> CBOR? {
    get { self[key: CBOR(key)] }
    set { self[key: CBOR(key)] = newValue }
  }

  /// Iterates the pairs in order (RFC 8949 §3.1).
  public func makeIterator() -> Iterator {
    Iterator(map: self)
  }

  /// An iterator over the pairs of a map in order (RFC 8949 §3.1).
  public struct Iterator: IteratorProtocol, Sendable {
    private let map: CBORMap
    private var position = 0

    init(map: CBORMap) { self.map = map }

    /// The next pair, or nil at the end (RFC 8949 §3.1).
    public mutating func next() -> (key: CBOR, value: CBOR)? {
      guard position < map.keyStorage.count else { return nil }
      defer { position += 1 }
      return (key: map.keyStorage[position], value: map.valueStorage[position])
    }
  }
}
