import DCAPI
internal import DCCBOR

/// The multipaz matcher's CBOR database (wire-formats.md, "multipaz matcher"):
///
/// ```
/// { "protocols": [tstr], "credentials": [ { "title", "subtitle", "bitmap",
///   ? "mdoc": { "documentId", "docType", ? "issuerIdentifiers", ? "readerIdentifiers",
///               "namespaces": { ns: { element: [displayName, displayValue, matchValue] } } },
///   ? "sdjwt": { "documentId", "vct", ? "issuerIdentifiers", ? "readerIdentifiers",
///                "claims": { "a.b.c": [displayName, displayValue, matchValue] } } } ] }
/// ```
///
/// Encoded deterministically (RFC 8949 §4.2.1). Empty identifier lists are left out, the
/// per-credential `protocols` override is never written, and `bitmap` is an empty byte string
/// when there is no icon.
enum MultipazRegistry {
  static func encode(
    _ descriptions: [CredentialDescription], protocols: [DigitalCredentialProtocol]
  ) throws(RegistrationError) -> [UInt8] {
    var credentials: [CBOR] = []
    for description in descriptions {
      credentials.append(try credential(description))
    }
    let database: CBOR = .map([
      "protocols": .array(protocols.map { .textString($0.rawValue) }),
      "credentials": .array(credentials),
    ])
    return CBOREncoder(mapOrder: .deterministic).encode(database)
  }

  private static func credential(_ description: CredentialDescription) throws(RegistrationError)
    -> CBOR
  {
    var entry: CBORMap = [
      "title": .textString(description.display.title),
      "subtitle": .textString(description.display.subtitle),
      "bitmap": .byteString(description.display.icon ?? []),
    ]
    var document: CBORMap = ["documentId": .textString(description.id)]
    let options = description.android
    if !options.issuerAuthorityKeyIdentifiers.isEmpty {
      document["issuerIdentifiers"] = .array(
        options.issuerAuthorityKeyIdentifiers.map { .byteString($0.bytes) })
    }
    if !options.supportedAuthorityKeyIdentifiers.isEmpty {
      document["readerIdentifiers"] = .array(
        options.supportedAuthorityKeyIdentifiers.map { .byteString($0.bytes) })
    }
    switch description.credential {
    case .mdoc(let docType, let nameSpaces):
      document["docType"] = .textString(docType)
      var namespaces = CBORMap()
      for (nameSpace, elements) in nameSpaces {
        var entries = CBORMap()
        for (element, claim) in elements {
          entries[element] = claimEntry(claim, defaultName: element)
        }
        namespaces[nameSpace] = .map(entries)
      }
      document["namespaces"] = .map(namespaces)
      entry["mdoc"] = .map(document)
    case .sdJWT(let vct, let claims):
      document["vct"] = .textString(vct)
      var entries = CBORMap()
      for (path, claim) in claims {
        // "a.b.c" keys: a component holding a dot would read as two components.
        if let dotted = path.first(where: { $0.contains(".") }) {
          throw RegistrationError(
            .invalidClaimPath,
            "claim path component '\(dotted)' contains '.', which the multipaz layout cannot hold",
            credentialID: description.id)
        }
        entries[path.joined(separator: ".")] = claimEntry(claim, defaultName: path.last ?? "")
      }
      document["claims"] = .map(entries)
      entry["sdjwt"] = .map(document)
    }
    return .map(entry)
  }

  /// `[displayName, displayValue, matchValue]`.
  private static func claimEntry(_ claim: RegisteredClaim, defaultName: String) -> CBOR {
    .array([
      .textString(claim.displayName ?? defaultName),
      .textString(claim.displayValue ?? claim.value.text ?? ""),
      .textString(AndroidRegistry.matchValue(claim.value)),
    ])
  }
}
