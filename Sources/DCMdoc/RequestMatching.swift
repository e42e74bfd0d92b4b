public import DCCBOR

/// How a stored mdoc answers one `ItemsRequest`: each requested element, and its value when
/// the mdoc holds it.
public struct ItemsRequestMatch: Sendable, Hashable {
  /// One requested element and what the mdoc has for it.
  public struct Element: Sendable, Hashable {
    /// The namespace of the requested element, e.g. `org.iso.18013.5.1`.
    public let nameSpace: String
    /// The requested element's identifier within its namespace.
    public let identifier: String
    /// Whether the reader said it will retain the value (`IntentToRetain`, §8.3.2.1.2.1).
    public let intentToRetain: Bool
    /// The element's value, nil when the mdoc does not hold it.
    public let value: CBOR?
  }

  /// The requested elements, in request order.
  public let elements: [Element]

  /// Elements the mdoc holds.
  public var available: [Element] { elements.filter { $0.value != nil } }
  /// Elements the mdoc does not hold.
  public var missing: [Element] { elements.filter { $0.value == nil } }
}

extension ItemsRequest {
  /// Matches an mdoc against this request (ISO 18013-5 §8.3.2.1.2.1): nil when the docType
  /// differs, otherwise every requested element with the mdoc's value or nil.
  public func match(_ issuerSigned: IssuerSigned) -> ItemsRequestMatch? {
    guard issuerSigned.docType == docType else { return nil }
    // One pass over the mdoc's items of each requested namespace, indexing positions (values
    // are not copied), then one lookup per requested element. A namespace the mdoc lists twice
    // is read from its last entry, an element listed twice from its first.
    var elements: [ItemsRequestMatch.Element] = []
    elements.reserveCapacity(nameSpaces.reduce(0) { $0 + $1.elements.count })
    for (ns, requested) in nameSpaces {
      let items = issuerSigned.nameSpaces.last { $0.nameSpace == ns }?.items ?? []
      if items.count * requested.count <= Self.scanLimit {
        // A namespace of a few dozen items (an mDL's): each requested element is found by
        // scanning the items in order, comparing lengths before text, which costs less than
        // hashing every identifier into a dictionary. Same answer: the first item that has it.
        for element in requested {
          let position = Self.firstPosition(of: element.identifier, in: items)
          elements.append(
            ItemsRequestMatch.Element(
              nameSpace: ns, identifier: element.identifier,
              intentToRetain: element.intentToRetain,
              value: position.map { items[$0].elementValue }))
        }
        continue
      }
      var positions: [String: Int] = Dictionary(minimumCapacity: items.count)
      for position in items.indices.reversed() {
        positions[items[position].elementIdentifier] = position
      }
      for element in requested {
        elements.append(
          ItemsRequestMatch.Element(
            nameSpace: ns, identifier: element.identifier, intentToRetain: element.intentToRetain,
            value: positions[element.identifier].map { items[$0].elementValue }))
      }
    }
    return ItemsRequestMatch(elements: elements)
  }

  /// Up to this many item × requested element comparisons, a namespace is matched by scanning
  /// (``firstPosition(of:in:)``); above, through a dictionary of the items' identifiers, so a
  /// large request against a large namespace stays linear.
  static let scanLimit = 1024

  /// The position of the first item whose identifier is `identifier`, nil when none has it.
  static func firstPosition(of identifier: String, in items: [IssuerSignedItem]) -> Int? {
    let length = identifier.utf8.count
    for index in items.indices {
      let candidate = items[index].elementIdentifier
      if candidate.utf8.count == length, candidate == identifier { return index }
    }
    return nil
  }
}
