public import DCCBOR
public import DCJSON

/// A Referenced Token's pointer into a Status List (draft-ietf-oauth-status-list §6.2, §6.3;
/// ISO 18013-5 second edition, MSO `status`): the index and the URI of the Status List Token.
public struct StatusReference: Sendable, Hashable {
  /// `idx`: the entry of this token in the list (draft §6.2: a non-negative integer).
  public let index: Int
  /// `uri`: where the Status List Token is published; its `sub` must equal this (draft §6.2).
  public let uri: String
  /// ISO 18013-5 2nd ed.: the optional `certificate` (DER) of the Status List Token's signer.
  public let certificate: [UInt8]?

  /// Creates a reference.
  public init(index: Int, uri: String, certificate: [UInt8]? = nil) {
    self.index = index
    self.uri = uri
    self.certificate = certificate
  }

  /// The `status` claim value of an SD-JWT VC (draft §6.2):
  /// `{"status_list": {"idx": ..., "uri": ...}}`.
  public var sdJWTStatusClaim: JSONValue {
    .object([
      (
        "status_list",
        .object([("idx", .integer(Int64(index))), ("uri", .string(uri))])
      )
    ])
  }

  /// The MSO `status` value of an mdoc (ISO 18013-5 2nd ed.; draft §6.3):
  /// `{"status_list": {"idx": uint, "uri": tstr, ? "certificate": bstr}}`.
  public var msoStatus: CBOR {
    var list: CBORMap = ["idx": CBOR(index), "uri": .textString(uri)]
    if let certificate { list["certificate"] = .byteString(certificate) }
    return .map(["status_list": .map(list)])
  }
}

/// What a Referenced Token's `status` claim says.
public enum ReferencedStatus: Sendable, Hashable {
  /// A Token Status List reference (draft §6.2).
  case statusList(StatusReference)
  /// Another mechanism this library does not check (the ISO 18013-5 `identifier_list`, or a
  /// member an extension defines), named by its key. Reported, not a failure.
  case unsupported(mechanism: String)

  /// Reads the `status` claim of an SD-JWT VC payload (draft §6.2; SD-JWT VC §3.2.2.2).
  ///
  /// - Returns: nil when the payload has no `status` claim.
  /// - Throws: ``StatusListError/Code/malformed`` when `status` or `status_list` is not as the
  ///   draft defines it (a verifier reports that as an unknown status, never as revoked).
  public static func sdJWT(payload: JSONValue) throws(StatusListError) -> ReferencedStatus? {
    guard let status = payload["status"] else { return nil }
    guard let members = status.object else {
      throw StatusListError(.malformed, "the status claim is not an object")
    }
    guard let list = status["status_list"] else {
      return .unsupported(mechanism: members.first?.key ?? "none")
    }
    guard case .object = list else {
      throw StatusListError(.malformed, "status.status_list is not an object")
    }
    guard case .integer(let idx) = list["idx"], idx >= 0, let index = Int(exactly: idx) else {
      throw StatusListError(.malformed, "status.status_list.idx is not a non-negative integer")
    }
    guard let uri = list["uri"]?.string else {
      throw StatusListError(.malformed, "status.status_list.uri is not a string")
    }
    return .statusList(StatusReference(index: index, uri: uri))
  }

  /// Reads an mdoc MSO `status` value (ISO 18013-5 2nd ed.: `Status = {? "status_list":
  /// StatusListInfo, ? "identifier_list": IdentifierListInfo}`; `StatusListInfo = {"idx": uint,
  /// "uri": tstr, ? "certificate": bstr}`).
  ///
  /// - Throws: ``StatusListError/Code/malformed`` when the value is not as defined.
  public static func mdoc(status: CBOR) throws(StatusListError) -> ReferencedStatus {
    guard let map = status.unwrapped.map else {
      throw StatusListError(.malformed, "the MSO status is not a map")
    }
    guard let list = map["status_list"] else {
      let name = map.keys.first.map { $0.text ?? "\($0)" } ?? "none"
      return .unsupported(mechanism: name)
    }
    guard let info = list.map else {
      throw StatusListError(.malformed, "status.status_list is not a map")
    }
    guard let idx = info["idx"]?.uint64, let index = Int(exactly: idx) else {
      throw StatusListError(.malformed, "status.status_list.idx is not an unsigned integer")
    }
    guard let uri = info["uri"]?.text else {
      throw StatusListError(.malformed, "status.status_list.uri is not text")
    }
    var certificate: [UInt8]?
    if let value = info["certificate"] {
      guard let der = value.bytes else {
        throw StatusListError(.malformed, "status.status_list.certificate is not a bstr")
      }
      certificate = der
    }
    return .statusList(StatusReference(index: index, uri: uri, certificate: certificate))
  }

  /// Reads a CWT Referenced Token's `status` claim (65535) from its claims map (draft §6.3).
  ///
  /// - Returns: nil when the claims have no `status`.
  public static func cwt(claims: CBORMap) throws(StatusListError) -> ReferencedStatus? {
    guard let status = claims[65535] else { return nil }
    return try mdoc(status: status)
  }
}
