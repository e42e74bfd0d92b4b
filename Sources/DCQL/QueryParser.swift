// Validation of a DCQL query's JSON (OpenID4VP 1.0 §6.1–§6.3, §7, Appendix B).
import DCEncoding
import DCJSON

enum QueryParser {
  static func query(_ root: ClaimValue) throws(DCQLError) -> DCQLQuery {
    guard case .object(let members) = root else {
      throw DCQLError(.invalidQuery, "the query is a JSON object")
    }
    let credentialValues = try nonEmptyArray(members["credentials"], at: "credentials")
    var credentials = [CredentialQuery]()
    credentials.reserveCapacity(credentialValues.count)
    var ids = Set<String>()
    for (i, value) in credentialValues.enumerated() {
      let credential = try credentialQuery(value, at: "credentials[\(i)]")
      // §6.1: ids are unique within the query.
      guard ids.insert(credential.id).inserted else {
        throw DCQLError(
          .invalidIdentifier, at: "credentials[\(i)].id", "duplicate id \"\(credential.id)\"")
      }
      credentials.append(credential)
    }
    var sets: [CredentialSetQuery]?
    if let setsValue = members["credential_sets"] {
      let values = try nonEmptyArray(setsValue, at: "credential_sets")
      var parsed = [CredentialSetQuery]()
      for (i, value) in values.enumerated() {
        parsed.append(try credentialSet(value, knownIDs: ids, at: "credential_sets[\(i)]"))
      }
      sets = parsed
    }
    return DCQLQuery(credentials: credentials, credentialSets: sets)
  }

  static func credentialQuery(_ value: ClaimValue, at location: @autoclosure () -> String)
    throws(DCQLError)
    -> CredentialQuery
  {
    guard case .object(let members) = value else {
      throw DCQLError(.invalidQuery, at: location(), "a Credential Query is an object")
    }
    let id = try identifier(members["id"], at: location() + ".id")
    guard case .string(let format)? = members["format"], !format.isEmpty else {
      throw DCQLError(.invalidQuery, at: location() + ".format", "format is a non-empty string")
    }
    let multiple = try bool(members["multiple"], default: false, at: location() + ".multiple")
    let holderBinding = try bool(
      members["require_cryptographic_holder_binding"], default: true,
      at: location() + ".require_cryptographic_holder_binding")
    let meta = try self.meta(members["meta"], format: format, at: location() + ".meta")

    var authorities: [TrustedAuthorityQuery]?
    if let value = members["trusted_authorities"] {
      authorities = try trustedAuthorities(value, at: location())
    }

    var claims: [ClaimsQuery]?
    var claimIDs = Set<String>()
    if let value = members["claims"] {
      (claims, claimIDs) = try claimsQueries(value, format: format, at: location())
    }

    var claimSets: [[String]]?
    if let value = members["claim_sets"] {
      claimSets = try self.claimSets(value, claims: claims, claimIDs: claimIDs, at: location())
    }

    return CredentialQuery(
      id: id, format: format, multiple: multiple, meta: meta, trustedAuthorities: authorities,
      requireCryptographicHolderBinding: holderBinding, claims: claims, claimSets: claimSets)
  }

  /// A Credential Query's `trusted_authorities`: a non-empty array of Trusted Authorities
  /// Queries (§6.1.1). `location` is the Credential Query's.
  private static func trustedAuthorities(
    _ value: ClaimValue, at location: @autoclosure () -> String
  )
    throws(DCQLError) -> [TrustedAuthorityQuery]
  {
    let values = try nonEmptyArray(value, at: location() + ".trusted_authorities")
    var parsed = [TrustedAuthorityQuery]()
    for (i, v) in values.enumerated() {
      parsed.append(try trustedAuthority(v, at: location() + ".trusted_authorities[\(i)]"))
    }
    return parsed
  }

  /// A Credential Query's `claims`, a non-empty array of Claims Queries, with the set of their
  /// ids (unique, §6.3). `location` is the Credential Query's.
  private static func claimsQueries(
    _ value: ClaimValue, format: String, at location: @autoclosure () -> String
  ) throws(DCQLError) -> ([ClaimsQuery], Set<String>) {
    var claimIDs = Set<String>()
    let values = try nonEmptyArray(value, at: location() + ".claims")
    var parsed = [ClaimsQuery]()
    for (i, v) in values.enumerated() {
      let claim = try claimsQuery(v, format: format, at: location() + ".claims[\(i)]")
      if let claimID = claim.id, !claimIDs.insert(claimID).inserted {
        // §6.3: claim ids are unique within the Credential Query.
        throw DCQLError(
          .invalidIdentifier, at: location() + ".claims[\(i)].id", "duplicate id \"\(claimID)\"")
      }
      parsed.append(claim)
    }
    return (parsed, claimIDs)
  }

  /// A Credential Query's `claim_sets`: only with `claims`, all of which then have ids, and
  /// each set a non-empty array of those ids. `location` is the Credential Query's.
  private static func claimSets(
    _ value: ClaimValue, claims: [ClaimsQuery]?, claimIDs: Set<String>,
    at location: @autoclosure () -> String
  ) throws(DCQLError) -> [[String]] {
    // §6.1: claim_sets MUST NOT be present without claims.
    guard let claims else {
      throw DCQLError(
        .invalidQuery, at: location() + ".claim_sets", "claim_sets is present without claims")
    }
    // §6.3: with claim_sets, every Claims Query has an id.
    if let missing = claims.firstIndex(where: { $0.id == nil }) {
      throw DCQLError(
        .invalidQuery, at: location() + ".claims[\(missing)].id",
        "an id is required when claim_sets is present")
    }
    let sets = try nonEmptyArray(value, at: location() + ".claim_sets")
    var parsed = [[String]]()
    for (i, set) in sets.enumerated() {
      func setLocation() -> String { location() + ".claim_sets[\(i)]" }
      let ids = try nonEmptyStrings(set, at: setLocation())
      if let unknown = ids.firstIndex(where: { !claimIDs.contains($0) }) {
        throw DCQLError(
          .unknownReference, at: setLocation() + "[\(unknown)]",
          "no claim has id \"\(ids[unknown])\"")
      }
      parsed.append(ids)
    }
    return parsed
  }

  // `meta` is REQUIRED by §6.1. A Credential Query without it does not make the whole query
  // invalid (another option of its credential set may still be answered), but it matches no
  // Credential (`CredentialQueryMeta.isPresent`, the evaluator).
  static func meta(_ value: ClaimValue?, format: String, at location: @autoclosure () -> String)
    throws(DCQLError)
    -> CredentialQueryMeta
  {
    guard let value else {
      return CredentialQueryMeta(doctypeValue: nil, vctValues: nil, raw: [:], isPresent: false)
    }
    guard case .object(let members) = value else {
      throw DCQLError(.invalidQuery, at: location(), "meta is an object")
    }
    var doctype: String?
    var vcts: [String]?
    if format == DCQLFormat.msoMdoc, let v = members["doctype_value"] {
      // Appendix B.2.3: doctype_value is a string.
      guard case .string(let s) = v else {
        throw DCQLError(
          .invalidValue, at: location() + ".doctype_value", "doctype_value is a string")
      }
      doctype = s
    }
    if format == DCQLFormat.sdJWTVC, let v = members["vct_values"] {
      // Appendix B.3: vct_values is a non-empty array of strings.
      vcts = try nonEmptyStrings(v, at: location() + ".vct_values", code: .invalidValue)
    }
    return CredentialQueryMeta(
      doctypeValue: doctype, vctValues: vcts, raw: members, isPresent: true)
  }

  static func trustedAuthority(_ value: ClaimValue, at location: @autoclosure () -> String)
    throws(DCQLError)
    -> TrustedAuthorityQuery
  {
    guard case .object(let members) = value else {
      throw DCQLError(.invalidQuery, at: location(), "a Trusted Authorities Query is an object")
    }
    guard case .string(let type)? = members["type"] else {
      throw DCQLError(.invalidQuery, at: location() + ".type", "type is a string")
    }
    let values = try nonEmptyStrings(
      members["values"], at: location() + ".values", code: .invalidValue)
    var identifiers = Set<[UInt8]>()
    if type == TrustedAuthorityQuery.aki {
      // §6.1.1.1: each value is the base64url-encoded KeyIdentifier of an AKI.
      for (i, v) in values.enumerated() {
        guard let bytes = try? Base64URL.decode(v), !bytes.isEmpty else {
          throw DCQLError(
            .invalidValue, at: location() + ".values[\(i)]", "not unpadded base64url")
        }
        identifiers.insert(bytes)
      }
    }
    return TrustedAuthorityQuery(type: type, values: values, keyIdentifiers: identifiers)
  }

  static func claimsQuery(
    _ value: ClaimValue, format: String, at location: @autoclosure () -> String
  )
    throws(DCQLError) -> ClaimsQuery
  {
    guard case .object(let members) = value else {
      throw DCQLError(.invalidQuery, at: location(), "a Claims Query is an object")
    }
    var id: String?
    if let v = members["id"] { id = try identifier(v, at: location() + ".id") }

    let path = try claimPath(members, format: format, at: location())

    var values: [ClaimValue]?
    if let v = members["values"] { values = try claimValues(v, at: location()) }

    var intentToRetain: Bool?
    if format == DCQLFormat.msoMdoc, members["intent_to_retain"] != nil {
      intentToRetain = try bool(
        members["intent_to_retain"], default: false, at: location() + ".intent_to_retain")
    }
    return ClaimsQuery(id: id, path: path, values: values, intentToRetain: intentToRetain)
  }

  /// A Claims Query's path: `path`, or a pre-1.0 mdoc `namespace` and `claim_name`; for an
  /// mdoc, exactly a namespace and an element identifier. `location` is the Claims Query's.
  private static func claimPath(
    _ members: [String: ClaimValue], format: String, at location: @autoclosure () -> String
  ) throws(DCQLError) -> ClaimsPathPointer {
    let path: ClaimsPathPointer
    if let v = members["path"] {
      do { path = try ClaimsPathPointer(json: v) } catch {
        throw DCQLError(
          error.code, at: location() + ".path" + error.location, error.reason,
          underlying: error.underlying, file: error.file, line: error.line)
      }
    } else if format == DCQLFormat.msoMdoc, case .string(let namespace)? = members["namespace"],
      case .string(let element)? = members["claim_name"]
    {
      // Pre-1.0 drafts named mdoc elements with namespace + claim_name instead of a path.
      path = try ClaimsPathPointer([.key(namespace), .key(element)])
    } else {
      throw DCQLError(.invalidPath, at: location() + ".path", "path is required")
    }
    if format == DCQLFormat.msoMdoc {
      // Appendix B.2.4: an mdoc path is exactly [namespace, data element identifier].
      guard path.components.count == 2,
        path.components.allSatisfy({ if case .key = $0 { true } else { false } })
      else {
        throw DCQLError(
          .invalidPath, at: location() + ".path",
          "an mso_mdoc path is two strings: namespace and element identifier")
      }
    }
    return path
  }

  /// A Claims Query's `values`: a non-empty array of strings, integers and booleans (§6.3).
  /// `location` is the Claims Query's.
  private static func claimValues(_ value: ClaimValue, at location: @autoclosure () -> String)
    throws(DCQLError) -> [ClaimValue]
  {
    let list = try nonEmptyArray(value, at: location() + ".values", code: .invalidValue)
    for (i, element) in list.enumerated() {
      // §6.3: values are strings, integers or booleans.
      switch element {
      case .string, .integer, .bool: continue
      default:
        throw DCQLError(
          .invalidValue, at: location() + ".values[\(i)]",
          "a value is a string, an integer or a boolean")
      }
    }
    return list
  }

  static func credentialSet(
    _ value: ClaimValue, knownIDs: Set<String>, at location: @autoclosure () -> String
  )
    throws(DCQLError) -> CredentialSetQuery
  {
    guard case .object(let members) = value else {
      throw DCQLError(.invalidQuery, at: location(), "a Credential Set Query is an object")
    }
    let optionValues = try nonEmptyArray(members["options"], at: location() + ".options")
    var options = [[String]]()
    options.reserveCapacity(optionValues.count)
    for (i, option) in optionValues.enumerated() {
      func optionLocation() -> String { location() + ".options[\(i)]" }
      let ids = try nonEmptyStrings(option, at: optionLocation())
      // §6.2: each option lists ids of Credential Queries in this query.
      if let unknown = ids.firstIndex(where: { !knownIDs.contains($0) }) {
        throw DCQLError(
          .unknownReference, at: optionLocation() + "[\(unknown)]",
          "no Credential Query has id \"\(ids[unknown])\"")
      }
      options.append(ids)
    }
    let required = try bool(members["required"], default: true, at: location() + ".required")
    return CredentialSetQuery(options: options, required: required, purpose: members["purpose"])
  }

  // MARK: - Member readers

  /// §6.1, §6.3: ids are non-empty and use only ASCII letters, digits, `_` and `-`.
  static func identifier(_ value: ClaimValue?, at location: @autoclosure () -> String)
    throws(DCQLError) -> String
  {
    guard case .string(let id)? = value else {
      throw DCQLError(.invalidQuery, at: location(), "id is a string")
    }
    let valid =
      !id.isEmpty
      && id.utf8.allSatisfy { c in
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
          true
        default: false
        }
      }
    guard valid else {
      throw DCQLError(.invalidIdentifier, at: location(), "\"\(id)\" is not [A-Za-z0-9_-]+")
    }
    return id
  }

  static func bool(
    _ value: ClaimValue?, default defaultValue: Bool, at location: @autoclosure () -> String
  )
    throws(DCQLError) -> Bool
  {
    switch value {
    case nil: return defaultValue
    case .bool(let b)?: return b
    default: throw DCQLError(.invalidQuery, at: location(), "a boolean is expected")
    }
  }

  static func nonEmptyArray(
    _ value: ClaimValue?, at location: @autoclosure () -> String,
    code: DCQLErrorCode = .invalidQuery
  ) throws(DCQLError) -> [ClaimValue] {
    guard case .array(let elements)? = value else {
      throw DCQLError(
        value == nil ? .invalidQuery : code, at: location(),
        value == nil ? "missing" : "a non-empty array is expected")
    }
    guard !elements.isEmpty else {
      throw DCQLError(code, at: location(), "a non-empty array is expected")
    }
    return elements
  }

  static func nonEmptyStrings(
    _ value: ClaimValue?, at location: @autoclosure () -> String,
    code: DCQLErrorCode = .invalidQuery
  ) throws(DCQLError) -> [String] {
    let elements = try nonEmptyArray(value, at: location(), code: code)
    var strings = [String]()
    strings.reserveCapacity(elements.count)
    for (i, e) in elements.enumerated() {
      guard case .string(let s) = e else {
        throw DCQLError(code, at: location() + "[\(i)]", "a string is expected")
      }
      strings.append(s)
    }
    return strings
  }
}
