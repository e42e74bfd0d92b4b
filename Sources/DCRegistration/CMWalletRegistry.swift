import DCJSON

/// The registry blob of the CMWallet and Ubique matchers (wire-formats.md, "CMWallet / Ubique
/// matchers"): a little-endian int32 offset of the JSON (4 + total icon bytes), the icons
/// back to back, then UTF-8 JSON:
///
/// ```
/// { "credentials": { "mso_mdoc": { docType: [ entry ] }, "dc+sd-jwt": { vct: [ entry ] } } }
/// entry = { "id", "title", "subtitle", "icon": { "start", "length" } | null, "paths": ... }
/// ```
///
/// `icon.start` counts from the start of the blob, so the first icon starts at 4. Both format
/// members are always written; types and claim members are sorted by their UTF-8 bytes, entries
/// of one type keep the order given. `"value"` is left out for claims that cannot be compared.
enum CMWalletRegistry {
  static func encode(_ descriptions: [CredentialDescription]) throws(RegistrationError) -> [UInt8] {
    var icons: [UInt8] = []
    var mdocs: [String: [JSONValue]] = [:]
    var sdJWTs: [String: [JSONValue]] = [:]
    for description in descriptions {
      var icon = JSONValue.null
      if let bytes = description.display.icon, !bytes.isEmpty {
        icon = .object([
          ("start", .integer(Int64(4 + icons.count))), ("length", .integer(Int64(bytes.count))),
        ])
        icons += bytes
        guard icons.count <= Int(Int32.max) - 4 else {
          throw RegistrationError(
            .registryTooLarge, "the icons exceed the int32 offset", credentialID: description.id)
        }
      }
      let entry = try registryEntry(description, icon: icon)
      switch description.credential {
      case .mdoc(let docType, _): mdocs[docType, default: []].append(entry)
      case .sdJWT(let vct, _): sdJWTs[vct, default: []].append(entry)
      }
    }
    let json: JSONValue = .object([
      (
        "credentials",
        .object([
          ("mso_mdoc", sortedObject(mdocs.map { ($0.key, .array($0.value)) })),
          ("dc+sd-jwt", sortedObject(sdJWTs.map { ($0.key, .array($0.value)) })),
        ])
      )
    ])
    let offset = UInt32(4 + icons.count)
    let header: [UInt8] = [
      UInt8(truncatingIfNeeded: offset), UInt8(truncatingIfNeeded: offset >> 8),
      UInt8(truncatingIfNeeded: offset >> 16), UInt8(truncatingIfNeeded: offset >> 24),
    ]
    return header + icons + json.serializedBytes()
  }

  /// `{ "id", "title", "subtitle", "icon", "paths" }` for one credential.
  private static func registryEntry(
    _ description: CredentialDescription, icon: JSONValue
  ) throws(RegistrationError) -> JSONValue {
    let paths: JSONValue
    switch description.credential {
    case .mdoc(_, let nameSpaces):
      paths = sortedObject(
        nameSpaces.map { nameSpace, elements in
          (
            nameSpace,
            sortedObject(elements.map { ($0.key, leaf($0.value, defaultName: $0.key)) })
          )
        })
    case .sdJWT(_, let claims):
      paths = try nested(claims, credentialID: description.id)
    }
    return .object([
      ("id", .string(description.id)),
      ("title", .string(description.display.title)),
      ("subtitle", .string(description.display.subtitle)),
      ("icon", icon),
      ("paths", paths),
    ])
  }

  /// `{ "value"?, "display" }`.
  private static func leaf(_ claim: RegisteredClaim, defaultName: String) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = []
    if let value = claim.value.json { members.append(("value", value)) }
    members.append(("display", .string(claim.displayName ?? defaultName)))
    return .object(members)
  }

  /// Nests SD-JWT claim paths into objects; a path that is also the prefix of another cannot be
  /// both a leaf and an object.
  private static func nested(
    _ claims: [[String]: RegisteredClaim], credentialID: String
  ) throws(RegistrationError) -> JSONValue {
    let paths = Set(claims.keys)
    for path in paths {
      for length in 1..<path.count where paths.contains(Array(path.prefix(length))) {
        throw RegistrationError(
          .invalidClaimPath,
          "claim path \(Array(path.prefix(length))) is both a value and the parent of \(path)",
          credentialID: credentialID)
      }
    }
    func build(_ group: [(suffix: ArraySlice<String>, claim: RegisteredClaim)]) -> JSONValue {
      var children: [String: [(suffix: ArraySlice<String>, claim: RegisteredClaim)]] = [:]
      var leaves: [(String, JSONValue)] = []
      for item in group {
        guard let head = item.suffix.first else { continue }
        let rest = item.suffix.dropFirst()
        if rest.isEmpty {
          leaves.append((head, leaf(item.claim, defaultName: head)))
        } else {
          children[head, default: []].append((rest, item.claim))
        }
      }
      return sortedObject(leaves + children.map { ($0.key, build($0.value)) })
    }
    return build(claims.map { (ArraySlice($0.key), $0.value) })
  }

  /// An object with members sorted by the UTF-8 bytes of their keys.
  private static func sortedObject(_ members: [(String, JSONValue)]) -> JSONValue {
    .object(
      members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }.map {
        (key: $0.0, value: $0.1)
      })
  }
}
