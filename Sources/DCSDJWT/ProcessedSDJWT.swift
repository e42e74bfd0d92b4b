import DCJOSE
public import DCJSON

/// The Processed SD-JWT Payload: the issuer's payload with every presented Disclosure put back
/// in place, digests, decoys and `_sd_alg` removed, and the claim path of each Disclosure
/// (RFC 9901 §7.1 steps 3-6).
public struct ProcessedSDJWT: Sendable, Hashable {
  /// The payload a verifier acts on, without `_sd`, `_sd_alg` or `{"...": digest}` entries
  /// (RFC 9901 §7.1 step 6).
  public let payload: JSONValue
  /// Where each Disclosure landed in ``payload`` (RFC 9901 §7.2 selects by these paths).
  package let disclosuresByPath: [ClaimPath: Disclosure]
  /// The hash algorithm of the digests, from `_sd_alg` (RFC 9901 §4.1.1).
  package let hashAlgorithm: SDHashAlgorithm

  /// The deepest nesting of objects, arrays and Disclosures accepted while processing.
  static let maximumDepth = 128

  /// Runs RFC 9901 §7.1 steps 3-6 over an issuer-signed payload and the presented Disclosures.
  ///
  /// - Throws: `malformed` for a payload that is not an object or an `_sd` that is not an array
  ///   of strings, `unsupportedHashAlgorithm`, `duplicateDisclosure`, `duplicateDigest`,
  ///   `invalidDisclosure` for an object Disclosure found in an array or the reverse,
  ///   `claimNameConflict`, `unreferencedDisclosure`.
  package init(issuerPayload: JSONValue, disclosures: [Disclosure]) throws(SDJWTError) {
    guard case .object = issuerPayload else {
      throw SDJWTError(.malformed, "the issuer-signed JWT payload must be a JSON object")
    }
    let algorithm = try Self.hashAlgorithm(of: issuerPayload)
    var byDigest: [String: Disclosure] = [:]
    for disclosure in disclosures {
      let digest = disclosure.digest(algorithm)
      guard byDigest.updateValue(disclosure, forKey: digest) == nil else {
        throw SDJWTError(.duplicateDisclosure, "disclosure \(digest) is presented more than once")
      }
    }
    var walker = Walker(byDigest: byDigest)
    let processed = try walker.process(issuerPayload, at: [], depth: 0)
    // RFC 9901 §7.1 step 5: every Disclosure must have been reached through a digest.
    if walker.used.count != byDigest.count {
      let unused = byDigest.keys.filter { !walker.used.contains($0) }.sorted()
      throw SDJWTError(
        .unreferencedDisclosure,
        "disclosures referenced by no digest: \(unused.joined(separator: ", "))")
    }
    payload = processed.removing("_sd_alg")
    disclosuresByPath = walker.paths
    hashAlgorithm = algorithm
  }

  /// Reads `_sd_alg`, SHA-256 when absent (RFC 9901 §4.1.1).
  static func hashAlgorithm(of payload: JSONValue) throws(SDJWTError) -> SDHashAlgorithm {
    guard let value = payload["_sd_alg"] else { return .sha256 }
    guard let name = value.string else {
      throw SDJWTError(.malformed, "_sd_alg must be a string")
    }
    return try SDHashAlgorithm(name: name)
  }

  /// The Disclosures a presentation of `paths` needs: those at or below each path, and those
  /// of every enclosing claim, without which the nested digests cannot be reached (RFC 9901 §7.2).
  ///
  /// - Throws: `claimNotFound` for a path that names nothing in ``payload``.
  public func disclosures(for paths: [ClaimPath]) throws(SDJWTError) -> Set<Disclosure> {
    var needed = Set<Disclosure>()
    try forEachDisclosure(for: paths) { needed.insert($0) }
    return needed
  }

  /// The texts of ``disclosures(for:)``, each once: one Disclosure per text, since a text
  /// presented twice is refused while processing (RFC 9901 §7.1 step 3.2.2.4), so the texts
  /// select the same Disclosures without hashing their decoded values.
  package func disclosureTexts(for paths: [ClaimPath]) throws(SDJWTError) -> [String] {
    var needed: [String] = []
    needed.reserveCapacity(disclosuresByPath.count)
    try forEachDisclosure(for: paths) { needed.append($0.encoded) }
    return needed
  }

  private func forEachDisclosure(for paths: [ClaimPath], _ body: (Disclosure) -> Void)
    throws(SDJWTError)
  {
    for path in paths where path.value(in: payload) == nil {
      throw SDJWTError(.claimNotFound, "no claim at \(path.dotted)")
    }
    // One pass over the Disclosures, each tested against every path.
    for (candidate, disclosure) in disclosuresByPath
    where paths.contains(where: { candidate.hasPrefix($0) || $0.hasPrefix(candidate) }) {
      body(disclosure)
    }
  }

  /// The chosen Disclosures plus those of every claim enclosing them, and nothing below them
  /// (RFC 9901 §7.2: a nested digest is only reachable through its parent's Disclosure).
  package func disclosures(including chosen: Set<ClaimPath>) -> Set<Disclosure> {
    var needed = Set<Disclosure>()
    for (candidate, disclosure) in disclosuresByPath
    where chosen.contains(where: { $0.hasPrefix(candidate) }) {
      needed.insert(disclosure)
    }
    return needed
  }
}

/// The recursive §7.1 step 3 walk, collecting used digests and claim paths.
private struct Walker {
  let byDigest: [String: Disclosure]
  var seen: Set<String> = []
  var used: Set<String> = []
  var paths: [ClaimPath: Disclosure] = [:]

  /// RFC 9901 §7.1 step 4: a digest may occur only once, counting Disclosure values too.
  mutating func see(_ digest: String) throws(SDJWTError) {
    guard seen.insert(digest).inserted else {
      throw SDJWTError(.duplicateDigest, "digest \(digest) occurs more than once")
    }
  }

  mutating func process(_ value: JSONValue, at path: ClaimPath, depth: Int) throws(SDJWTError)
    -> JSONValue
  {
    guard depth <= ProcessedSDJWT.maximumDepth else {
      throw SDJWTError(
        .malformed, "nesting deeper than \(ProcessedSDJWT.maximumDepth) at \(path.dotted)")
    }
    switch value {
    case .object(let members): return try processObject(members, at: path, depth: depth)
    case .array(let elements): return try processArray(elements, at: path, depth: depth)
    default: return value
    }
  }

  private mutating func processObject(
    _ members: [(key: String, value: JSONValue)], at path: ClaimPath, depth: Int
  ) throws(SDJWTError) -> JSONValue {
    var output: [(key: String, value: JSONValue)] = []
    var names = Set<String>()
    for member in members where member.key != "_sd" {
      output.append(
        (
          member.key,
          try process(member.value, at: path.appending(.key(member.key)), depth: depth + 1)
        ))
      names.insert(member.key)
    }
    guard let sd = members.first(where: { $0.key == "_sd" })?.value else { return .object(output) }
    // RFC 9901 §4.2.4.1: `_sd` is an array of digest strings.
    guard let digests = sd.array else {
      throw SDJWTError(
        .malformed, "_sd at \(path.dotted.isEmpty ? "top level" : path.dotted) is not an array")
    }
    for element in digests {
      guard let digest = element.string else {
        throw SDJWTError(.malformed, "_sd at \(path.dotted) holds a non-string")
      }
      try see(digest)
      // RFC 9901 §7.1 step 3.2.3: digests without a Disclosure are decoys or undisclosed claims.
      guard let disclosure = byDigest[digest] else { continue }
      guard let name = disclosure.name else {
        throw SDJWTError(
          .invalidDisclosure, "array element disclosure \(digest) is referenced from an object _sd")
      }
      // RFC 9901 §7.1 step 3.2.2.3: a disclosed name must not already be present.
      guard names.insert(name).inserted else {
        throw SDJWTError(.claimNameConflict, "claim \(name) at \(path.dotted) already exists")
      }
      used.insert(digest)
      let childPath = path.appending(.key(name))
      paths[childPath] = disclosure
      output.append((name, try process(disclosure.value, at: childPath, depth: depth + 1)))
    }
    return .object(output)
  }

  private mutating func processArray(_ elements: [JSONValue], at path: ClaimPath, depth: Int)
    throws(SDJWTError) -> JSONValue
  {
    var output: [JSONValue] = []
    for element in elements {
      // RFC 9901 §4.2.4.2: an element that is an object with the single key `...` is a digest.
      guard case .object(let members) = element, members.count == 1, members[0].key == "..."
      else {
        output.append(
          try process(element, at: path.appending(.index(output.count)), depth: depth + 1))
        continue
      }
      guard let digest = members[0].value.string else {
        throw SDJWTError(.malformed, "array digest at \(path.dotted) is not a string")
      }
      try see(digest)
      guard let disclosure = byDigest[digest] else { continue }
      guard disclosure.isArrayElement else {
        throw SDJWTError(
          .invalidDisclosure, "object property disclosure \(digest) is referenced from an array")
      }
      used.insert(digest)
      let childPath = path.appending(.index(output.count))
      paths[childPath] = disclosure
      output.append(try process(disclosure.value, at: childPath, depth: depth + 1))
    }
    return .array(output)
  }
}

extension JSONValue {
  /// The value a claim path selects, or nil when a step is missing (RFC 9901 §7.2).
  func value(at path: ClaimPath) -> JSONValue? { path.value(in: self) }
}
