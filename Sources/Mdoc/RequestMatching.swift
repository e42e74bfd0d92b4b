public import CBOR

/// How a stored mdoc answers one `ItemsRequest`: each requested element, and its value when
/// the mdoc holds it.
public struct ItemsRequestMatch: Sendable, Hashable {
  /// One requested element and what the mdoc has for it.
  public struct Element: Sendable, Hashable {
    public let nameSpace: String
    public let identifier: String
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
    // One pass over the mdoc's items, then one lookup per requested element.
    var values: [String: [String: CBOR]] = [:]
    for (ns, items) in issuerSigned.nameSpaces {
      var byElement: [String: CBOR] = [:]
      byElement.reserveCapacity(items.count)
      for item in items where byElement[item.elementIdentifier] == nil {
        byElement[item.elementIdentifier] = item.elementValue
      }
      values[ns] = byElement
    }
    let elements = requestedElements.map { ns, element in
      ItemsRequestMatch.Element(
        nameSpace: ns, identifier: element.identifier, intentToRetain: element.intentToRetain,
        value: values[ns]?[element.identifier])
    }
    return ItemsRequestMatch(elements: elements)
  }
}
