public import DCCBOR

/// `OriginInfo = {"cat": uint, "type": uint, "details": any}`, key 5 of a version 1.1
/// DeviceEngagement (ISO/IEC TS 18013-7; the 2021 CDDL's `* int => any`). Kept as given; `domain`
/// reads the website form (`cat` 1, `type` 1, `details` `{"domain": tstr}`) that multipaz writes.
public struct OriginInfo: Sendable, Hashable {
  /// The category (`cat`).
  package let category: UInt64
  /// The type (`type`).
  public let type: UInt64
  /// The details, as given.
  package let details: CBOR

  /// An OriginInfo from its parts.
  public init(category: UInt64, type: UInt64, details: CBOR) {
    self.category = category
    self.type = type
    self.details = details
  }

  /// The website form: category 1, type 1, `{"domain": domain}`.
  package static func website(domain: String) -> OriginInfo {
    OriginInfo(category: 1, type: 1, details: ["domain": .textString(domain)])
  }

  /// The domain of the website form, else nil.
  package var domain: String? {
    guard category == 1, type == 1 else { return nil }
    return details["domain"]?.text
  }

  init(cbor: CBOR, index: Int) throws(MdocProximityError) {
    guard let map = cbor.map, let category = map["cat"]?.uint64, let type = map["type"]?.uint64,
      let details = map["details"]
    else {
      throw malformed(
        "OriginInfos[\(index)] must be a map with unsigned \"cat\" and \"type\" and \"details\"")
    }
    self.init(category: category, type: type, details: details)
  }

  /// The OriginInfo as CBOR.
  package var cbor: CBOR {
    ["cat": .unsigned(category), "type": .unsigned(type), "details": details]
  }
}
