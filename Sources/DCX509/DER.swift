import DCEncoding

/// Distinguished Encoding Rules (X.690 §10): a strict reader and a serializer for the subset of
/// ASN.1 that X.509 certificates use.
public enum DER {
  /// The deepest nesting the reader accepts; RFC 5280 certificates need fewer than 12 levels.
  package static let maximumDepth = 32

  /// Identifier octets (X.690 §8.1.2) for the universal types this library reads and writes.
  package enum Identifier {
    /// BOOLEAN (X.690 §8.2).
    package static let boolean: UInt8 = 0x01
    /// INTEGER (X.690 §8.3).
    package static let integer: UInt8 = 0x02
    /// BIT STRING, primitive as DER requires (X.690 §10.2).
    package static let bitString: UInt8 = 0x03
    /// OCTET STRING, primitive as DER requires (X.690 §10.2).
    package static let octetString: UInt8 = 0x04
    /// NULL (X.690 §8.8).
    package static let null: UInt8 = 0x05
    /// OBJECT IDENTIFIER (X.690 §8.19).
    package static let objectIdentifier: UInt8 = 0x06
    /// UTF8String (X.680 §41).
    package static let utf8String: UInt8 = 0x0C
    /// PrintableString (X.680 §41.4).
    package static let printableString: UInt8 = 0x13
    /// TeletexString, read as Latin-1 (RFC 5280 §4.1.2.4 legacy DirectoryString).
    package static let teletexString: UInt8 = 0x14
    /// IA5String (X.680 §41).
    package static let ia5String: UInt8 = 0x16
    /// UTCTime (X.680 §47).
    package static let utcTime: UInt8 = 0x17
    /// GeneralizedTime (X.680 §46).
    package static let generalizedTime: UInt8 = 0x18
    /// UniversalString, UTF-32BE (X.680 §41).
    package static let universalString: UInt8 = 0x1C
    /// BMPString, UTF-16BE (X.680 §41).
    package static let bmpString: UInt8 = 0x1E
    /// SEQUENCE and SEQUENCE OF, constructed (X.690 §8.9).
    package static let sequence: UInt8 = 0x30
    /// SET and SET OF, constructed (X.690 §8.11).
    package static let set: UInt8 = 0x31

    /// A context-specific tag `[number]` (X.690 §8.1.2.2); explicit tags are constructed.
    package static func contextSpecific(_ number: UInt8, constructed: Bool) -> UInt8 {
      0x80 | (constructed ? 0x20 : 0) | (number & 0x1F)
    }
  }

  /// One parsed TLV (X.690 §8.1): a view into the one input buffer, never a copy.
  ///
  /// ``DER/parse(_:)`` checks the whole tree once; members are then found by re-reading the
  /// already checked headers, so no node allocates and the tree is never materialised.
  public struct Node: Sendable, Hashable {
    /// The single identifier octet (class, constructed bit and tag number).
    public let identifier: UInt8
    /// The whole TLV as it appeared in the input.
    package let encodedBytes: ArraySlice<UInt8>
    /// Where the contents octets start in ``encodedBytes``' indices.
    let contentStart: Int

    /// The contents octets.
    public var content: ArraySlice<UInt8> { encodedBytes[contentStart...] }

    /// The members of a constructed node, in order; empty for primitive nodes.
    package var children: [Node] {
      var result: [Node] = []
      var cursor = firstChild
      while let node = cursor {
        result.append(node)
        cursor = next(after: node)
      }
      return result
    }

    /// Whether the constructed bit is set (X.690 §8.1.2.5).
    package var isConstructed: Bool { identifier & 0x20 != 0 }

    /// The first member of a constructed node, or nil.
    var firstChild: Node? {
      guard isConstructed else { return nil }
      return DER.checkedNode(in: encodedBytes, at: contentStart)
    }

    /// The member of this node that follows child, or nil after the last one.
    func next(after child: Node) -> Node? {
      DER.checkedNode(in: encodedBytes, at: child.encodedBytes.endIndex)
    }
  }

  /// Re-reads a header that ``parseNode(_:at:depth:)`` has already checked; nil at the end of
  /// data (or, defensively, on anything malformed).
  static func checkedNode(in data: ArraySlice<UInt8>, at start: Int) -> Node? {
    guard data.endIndex - start >= 2 else { return nil }
    var index = start + 1
    let first = data[index]
    index += 1
    var length = 0
    if first < 0x80 {
      length = Int(first)
    } else {
      let count = Int(first & 0x7F)
      guard count <= 4, data.endIndex - index >= count else { return nil }
      for _ in 0..<count {
        length = length << 8 | Int(data[index])
        index += 1
      }
    }
    guard data.endIndex - index >= length else { return nil }
    return Node(
      identifier: data[start], encodedBytes: data[start..<index + length], contentStart: index)
  }

  /// Parses exactly one DER TLV that spans all of bytes, descending into every constructed node.
  ///
  /// Rejects indefinite and non-minimal lengths (X.690 §10.1), constructed strings (§10.2),
  /// high tag numbers, nesting deeper than 32 levels and trailing bytes.
  public static func parse(_ bytes: some Collection<UInt8>) throws(CertificateError) -> Node {
    let data = Array(bytes)[...]
    let (node, end) = try parseNode(data, at: data.startIndex, depth: 1)
    guard end == data.endIndex else {
      throw CertificateError(
        .invalidDER, "\(data.endIndex - end) trailing bytes after the DER value at offset \(end)")
    }
    return node
  }

  private static func parseNode(_ data: ArraySlice<UInt8>, at start: Int, depth: Int)
    throws(CertificateError) -> (Node, Int)
  {
    guard depth <= maximumDepth else {
      throw CertificateError(.invalidDER, "nesting deeper than \(maximumDepth) at offset \(start)")
    }
    var index = start
    guard data.endIndex - index >= 2 else {
      throw CertificateError(.invalidDER, "truncated header at offset \(start)")
    }
    let identifier = data[index]
    index += 1
    // X.690 §8.1.2.4: tag numbers above 30 use the high form, which no X.509 field needs.
    guard identifier & 0x1F != 0x1F else {
      throw CertificateError(.invalidDER, "high tag number form at offset \(start)")
    }
    guard identifier != 0 else {
      throw CertificateError(.invalidDER, "end-of-contents octets at offset \(start)")
    }
    let length = try readLength(data, at: &index, start: start)
    guard data.endIndex - index >= length else {
      throw CertificateError(
        .invalidDER,
        "value at offset \(start) claims \(length) bytes, \(data.endIndex - index) remain")
    }
    let end = index + length
    let constructed = identifier & 0x20 != 0
    let isUniversal = identifier & 0xC0 == 0
    let number = identifier & 0x1F
    if isUniversal && (number == 0x10 || number == 0x11) && !constructed {
      throw CertificateError(.invalidDER, "primitive SEQUENCE or SET at offset \(start)")
    }
    if isUniversal && constructed && number != 0x10 && number != 0x11 {
      throw CertificateError(.invalidDER, "constructed string encoding at offset \(start)")
    }
    if constructed {
      var cursor = index
      let content = data[index..<end]
      while cursor < end {
        (_, cursor) = try parseNode(content, at: cursor, depth: depth + 1)
      }
    }
    let node = Node(identifier: identifier, encodedBytes: data[start..<end], contentStart: index)
    return (node, end)
  }

  /// The length octets at `index` (X.690 §8.1.3), `index` moved past them. `start` is the
  /// node's offset, for the errors.
  private static func readLength(_ data: ArraySlice<UInt8>, at index: inout Int, start: Int)
    throws(CertificateError) -> Int
  {
    let first = data[index]
    index += 1
    guard first >= 0x80 else { return Int(first) }
    // X.690 §10.1: definite form only, in the fewest octets.
    guard first != 0x80 else {
      throw CertificateError(.invalidDER, "indefinite length at offset \(start)")
    }
    let count = Int(first & 0x7F)
    guard count <= 4 else {
      throw CertificateError(.invalidDER, "length of \(count) octets at offset \(start)")
    }
    guard data.endIndex - index >= count else {
      throw CertificateError(.invalidDER, "truncated length at offset \(start)")
    }
    guard data[index] != 0 else {
      throw CertificateError(.invalidDER, "non-minimal length encoding at offset \(start)")
    }
    var length = 0
    for _ in 0..<count {
      length = length << 8 | Int(data[index])
      index += 1
    }
    guard length >= 0x80 else {
      throw CertificateError(.invalidDER, "non-minimal length encoding at offset \(start)")
    }
    return length
  }
}

extension DER.Node {
  /// The members of a constructed node walked in place, without building an array.
  struct ChildSequence: Sequence, IteratorProtocol {
    let parent: DER.Node
    var cursor: DER.Node?

    mutating func next() -> DER.Node? {
      guard let node = cursor else { return nil }
      cursor = parent.next(after: node)
      return node
    }
  }

  /// The members of a constructed node, in order, read in place.
  var childNodes: ChildSequence { ChildSequence(parent: self, cursor: firstChild) }

  /// The member of a constructed node that has exactly one, else nil.
  var onlyChild: DER.Node? {
    guard let child = firstChild, next(after: child) == nil else { return nil }
    return child
  }

  /// Whether a constructed node has at least one member.
  var hasChildren: Bool { firstChild != nil }

  /// Fails unless this node has the expected identifier.
  /// `what` is built only on failure, so the happy path formats no strings.
  func expect(_ identifier: UInt8, _ what: @autoclosure () -> String) throws(CertificateError)
    -> DER.Node
  {
    guard self.identifier == identifier else {
      throw CertificateError(
        .invalidCertificate,
        "\(what()): expected tag 0x\(hex(identifier)), found 0x\(hex(self.identifier))")
    }
    return self
  }

  /// The members of a SEQUENCE (or other constructed node), read in order.
  func members(_ what: String) -> DER.Members { DER.Members(self, what) }

  /// An INTEGER's two's-complement bytes, minimal as X.690 §8.3.2 requires.
  package func integerBytes() throws(CertificateError) -> [UInt8] {
    guard identifier == DER.Identifier.integer, !content.isEmpty else {
      throw CertificateError(.invalidDER, "expected a non-empty INTEGER")
    }
    if content.count > 1 {
      let first = content[content.startIndex]
      let second = content[content.startIndex + 1]
      guard !(first == 0x00 && second & 0x80 == 0), !(first == 0xFF && second & 0x80 != 0) else {
        throw CertificateError(.invalidDER, "non-minimal INTEGER encoding")
      }
    }
    return Array(content)
  }

  /// A non-negative INTEGER that fits in `Int`.
  package func integerValue() throws(CertificateError) -> Int {
    let bytes = try integerBytes()
    guard bytes[0] & 0x80 == 0 else {
      throw CertificateError(.invalidDER, "negative INTEGER where a count is expected")
    }
    let significant = bytes.drop(while: { $0 == 0 })
    guard significant.count <= 7 else {
      throw CertificateError(.invalidDER, "INTEGER too large")
    }
    return significant.reduce(0) { $0 << 8 | Int($1) }
  }

  /// A BOOLEAN, which DER encodes as 0x00 or 0xFF (X.690 §11.1).
  package func booleanValue() throws(CertificateError) -> Bool {
    guard identifier == DER.Identifier.boolean, content.count == 1 else {
      throw CertificateError(.invalidDER, "expected a one-byte BOOLEAN")
    }
    switch content[content.startIndex] {
    case 0x00: return false
    case 0xFF: return true
    default: throw CertificateError(.invalidDER, "BOOLEAN not encoded as 0x00 or 0xFF")
    }
  }

  /// An OBJECT IDENTIFIER (X.690 §8.19), with minimal sub-identifiers.
  package func objectIdentifier() throws(CertificateError) -> ASN1ObjectIdentifier {
    guard identifier == DER.Identifier.objectIdentifier, !content.isEmpty else {
      throw CertificateError(.invalidDER, "expected a non-empty OBJECT IDENTIFIER")
    }
    // X.690 §8.19.4: the first sub-identifier packs the first two arcs, split as it completes.
    var arcs: [UInt64] = []
    arcs.reserveCapacity(content.count + 1)
    var current: UInt64 = 0
    var fresh = true
    for byte in content {
      // X.690 §8.19.2: no leading 0x80 padding in a sub-identifier.
      guard !(fresh && byte == 0x80) else {
        throw CertificateError(.invalidDER, "non-minimal OBJECT IDENTIFIER arc")
      }
      guard current >> 56 == 0 else {
        throw CertificateError(.invalidDER, "OBJECT IDENTIFIER arc too large")
      }
      current = current << 7 | UInt64(byte & 0x7F)
      fresh = byte & 0x80 == 0
      if fresh {
        if arcs.isEmpty {
          arcs.append(current < 40 ? 0 : current < 80 ? 1 : 2)
          arcs.append(current < 40 ? current : current < 80 ? current - 40 : current - 80)
        } else {
          arcs.append(current)
        }
        current = 0
      }
    }
    guard fresh else {
      throw CertificateError(.invalidDER, "truncated OBJECT IDENTIFIER arc")
    }
    return ASN1ObjectIdentifier(arcs: arcs)
  }

  /// A BIT STRING's bytes; DER requires the unused trailing bits to be zero (X.690 §11.2.1).
  package func bitStringBytes() throws(CertificateError) -> (bytes: [UInt8], unusedBits: Int) {
    guard identifier == DER.Identifier.bitString, !content.isEmpty else {
      throw CertificateError(.invalidDER, "expected a BIT STRING")
    }
    let unused = Int(content[content.startIndex])
    let bytes = Array(content.dropFirst())
    guard unused <= 7, !(bytes.isEmpty && unused != 0) else {
      throw CertificateError(.invalidDER, "BIT STRING with \(unused) unused bits")
    }
    if let last = bytes.last, unused > 0, last & UInt8((1 << unused) - 1) != 0 {
      throw CertificateError(.invalidDER, "BIT STRING unused bits are not zero")
    }
    return (bytes, unused)
  }

  /// A BIT STRING that must hold whole bytes, as keys and signatures do (RFC 5280 §4.1.1.3).
  package func octetAlignedBitString() throws(CertificateError) -> [UInt8] {
    let (bytes, unused) = try bitStringBytes()
    guard unused == 0 else {
      throw CertificateError(.invalidDER, "BIT STRING is not a whole number of bytes")
    }
    return bytes
  }

  /// An OCTET STRING's bytes.
  package func octetStringBytes() throws(CertificateError) -> [UInt8] {
    guard identifier == DER.Identifier.octetString else {
      throw CertificateError(.invalidDER, "expected an OCTET STRING")
    }
    return Array(content)
  }

  /// Any of the character string types a DirectoryString or GeneralName may use (RFC 5280 §4.1.2.4).
  package func stringValue() throws(CertificateError) -> String {
    let bytes = Array(content)
    switch identifier {
    case DER.Identifier.utf8String:
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw CertificateError(.invalidDER, "UTF8String is not valid UTF-8")
      }
      return text
    case DER.Identifier.printableString, DER.Identifier.ia5String:
      guard bytes.allSatisfy({ $0 < 0x80 }) else {
        throw CertificateError(.invalidDER, "PrintableString or IA5String is not ASCII")
      }
      return String(decoding: bytes, as: UTF8.self)
    case DER.Identifier.teletexString:
      return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    case DER.Identifier.bmpString:
      guard bytes.count % 2 == 0 else {
        throw CertificateError(.invalidDER, "BMPString has an odd length")
      }
      let units = stride(from: 0, to: bytes.count, by: 2).map {
        UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
      }
      guard let text = String(validating: units, as: UTF16.self) else {
        throw CertificateError(.invalidDER, "BMPString is not valid UTF-16")
      }
      return text
    case DER.Identifier.universalString:
      guard bytes.count % 4 == 0 else {
        throw CertificateError(.invalidDER, "UniversalString length is not a multiple of 4")
      }
      var scalars = String.UnicodeScalarView()
      for offset in stride(from: 0, to: bytes.count, by: 4) {
        let value = bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard let scalar = Unicode.Scalar(value) else {
          throw CertificateError(.invalidDER, "UniversalString holds an invalid code point")
        }
        scalars.append(scalar)
      }
      return String(scalars)
    default:
      throw CertificateError(.invalidDER, "tag 0x\(hex(identifier)) is not a character string")
    }
  }
}

extension DER {
  /// Reads the members of a constructed node in order and insists every member is consumed,
  /// as the swift-asn1 parsers do.
  struct Members {
    private let parent: Node
    private var cursor: Node?
    private let what: String

    init(_ node: Node, _ what: String) {
      self.parent = node
      self.cursor = node.firstChild
      self.what = what
    }

    var isAtEnd: Bool { cursor == nil }

    /// The next member, which must carry identifier.
    mutating func next(_ identifier: UInt8, _ field: String) throws(CertificateError) -> Node {
      guard let node = cursor else {
        throw CertificateError(.invalidCertificate, "\(what): missing \(field)")
      }
      _ = try node.expect(identifier, "\(what).\(field)")
      cursor = parent.next(after: node)
      return node
    }

    /// The next member of any type.
    mutating func nextAny(_ field: String) throws(CertificateError) -> Node {
      guard let node = cursor else {
        throw CertificateError(.invalidCertificate, "\(what): missing \(field)")
      }
      cursor = parent.next(after: node)
      return node
    }

    /// The next member if it carries identifier (OPTIONAL and DEFAULT fields).
    mutating func optional(_ identifier: UInt8) -> Node? {
      guard let node = cursor, node.identifier == identifier else { return nil }
      cursor = parent.next(after: node)
      return node
    }

    /// Fails if members remain.
    func finish() throws(CertificateError) {
      guard var node = cursor else { return }
      var remaining = 1
      while let following = parent.next(after: node) {
        remaining += 1
        node = following
      }
      throw CertificateError(
        .invalidCertificate, "\(what): \(remaining) unexpected trailing members")
    }
  }
}

func hex(_ byte: UInt8) -> String { Hex.encode([byte]) }

func hex(_ bytes: some Sequence<UInt8>) -> String { Hex.encode(bytes) }
